import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { SANDBOX_PRINTERS } from '../sandbox/printers.js';
import type { AlertsTable } from './schema.js';
import { Store } from './store.js';
import {
  storePerSuite,
  storeKinds,
  testDatabase,
  twoInstancesPerSuite,
} from '../testing/stores.js';
import type { WebhookEndpoint } from './webhooks.js';

const T0 = Date.parse('2026-03-10T10:00:00.000Z');
const MIN = 60_000;
const LEASE = 15 * MIN;

const suffix = () => randomBytes(6).toString('hex');

/** An organization with members: `owners` are owners, `others` admins. */
async function organization(
  store: Store,
  members: { owners: string[]; others?: string[] },
): Promise<string> {
  const org = (await store.organizations.create({ name: 'Shop' }, T0, SANDBOX_PRINTERS)).id;
  const people = [
    ...members.owners.map((email) => ({ email, role: 'owner' })),
    ...(members.others ?? []).map((email) => ({ email, role: 'admin' })),
  ];
  await store.write(async (trx) => {
    for (const { email, role } of people) {
      const id = `usr_${suffix()}`;
      await trx
        .insertInto('users')
        .values({
          id,
          email,
          name: email,
          passwordHash: 'x',
          emailVerifiedAt: T0,
          createdAt: T0,
        })
        .execute();
      await trx
        .insertInto('memberships')
        .values({ organizationId: org, userId: id, role, createdAt: T0 })
        .execute();
    }
  });
  return org;
}

const message = (organizationId: string, to: string) => ({
  organizationId,
  to,
  subject: `hello ${to}`,
  text: 'body',
});

for (const { kind, skip } of await storeKinds()) {
  describe(`mail outbox on ${kind}`, { skip }, () => {
    let store: Store;
    storePerSuite(kind, (opened) => {
      store = opened;
    });

    /** Empties the outbox (earlier tests' rows). */
    async function clear(): Promise<void> {
      await store.write((trx) => trx.deleteFrom('mailOutbox').execute());
    }

    test('a message written in a transaction exists exactly when the transaction commits', async () => {
      await clear();
      const org = await organization(store, { owners: [`a-${suffix()}@example.com`] });
      await assert.rejects(
        store.write(async (trx) => {
          await store.mailOutbox.enqueueIn(trx, [message(org, 'x@example.com')], T0);
          throw new Error('the change failed after its e-mail was written');
        }),
        /the change failed/,
      );
      assert.equal(await store.mailOutbox.size(), 0);
      await store.write((trx) =>
        store.mailOutbox.enqueueIn(
          trx,
          [message(org, 'x@example.com'), message(org, 'y@example.com')],
          T0,
        ),
      );
      const rows = await store.mailOutbox.pending();
      assert.deepEqual(
        rows.map((r) => [r.recipient, r.attempts, r.nextAttemptAt, r.createdAt, r.lastError]),
        [
          ['x@example.com', 0, T0, T0, null],
          ['y@example.com', 0, T0, T0, null],
        ],
      );
    });

    test('a claim takes due rows oldest first, counts the attempt and leases them; a lapsed lease makes a row due again', async () => {
      await clear();
      const org = await organization(store, { owners: [] });
      await store.mailOutbox.enqueue([message(org, 'late@example.com')], T0 + 5);
      await store.mailOutbox.enqueue(
        [message(org, 'first@example.com'), message(org, 'second@example.com')],
        T0,
      );
      assert.deepEqual(await store.mailOutbox.claimDue(T0 - 1, 10, LEASE), [], 'nothing due yet');

      const claimed = await store.mailOutbox.claimDue(T0, 10, LEASE);
      assert.deepEqual(
        claimed.map((r) => [r.recipient, r.attempts, r.nextAttemptAt]),
        [
          ['first@example.com', 1, T0 + LEASE],
          ['second@example.com', 1, T0 + LEASE],
        ],
        'the T0 + 5 one is not due at T0',
      );
      assert.deepEqual(
        (await store.mailOutbox.claimDue(T0 + 5, 10, LEASE)).map((r) => r.recipient),
        ['late@example.com'],
        'claimed rows are not claimed again while leased',
      );
      // The sender of the first two died: they come back when the lease is over, and only then.
      assert.deepEqual(await store.mailOutbox.claimDue(T0 + LEASE - 1, 10, LEASE), []);
      const again = await store.mailOutbox.claimDue(T0 + LEASE, 1, LEASE);
      assert.deepEqual(
        again.map((r) => [r.recipient, r.attempts]),
        [['first@example.com', 2]],
        'the limit holds; a crashed attempt counts',
      );
    });

    test('sent deletes, failed records the error and the next attempt, drop deletes and returns the row', async () => {
      await clear();
      const org = await organization(store, { owners: [] });
      await store.mailOutbox.enqueue(
        [message(org, 'ok@example.com'), message(org, 'ko@example.com')],
        T0,
      );
      const [ok, ko] = await store.mailOutbox.claimDue(T0, 10, LEASE);
      await store.mailOutbox.sent(ok!.id);
      await store.mailOutbox.failed(ko!.id, 'connection refused', T0 + 30_000);
      const [left] = await store.mailOutbox.pending();
      assert.equal(await store.mailOutbox.size(), 1);
      assert.equal(left!.id, ko!.id);
      assert.equal(left!.attempts, 1);
      assert.equal(left!.lastError, 'connection refused');
      assert.equal(left!.nextAttemptAt, T0 + 30_000);
      assert.deepEqual(await store.mailOutbox.claimDue(T0 + 29_999, 10, LEASE), []);

      const dropped = await store.mailOutbox.drop(ko!.id, 'still refused');
      assert.equal(dropped?.recipient, 'ko@example.com');
      assert.equal(dropped?.lastError, 'still refused');
      assert.equal(await store.mailOutbox.drop(ko!.id), undefined, 'already gone');
      assert.equal(await store.mailOutbox.size(), 0);
    });

    test('an alert’s e-mails to the owners commit with the alert, once per change', async () => {
      await clear();
      const owners = [`o1-${suffix()}@example.com`, `o2-${suffix()}@example.com`].sort();
      const org = await organization(store, { owners, others: [`admin-${suffix()}@example.com`] });
      const rule = {
        id: `alr_${suffix()}`,
        organizationId: org,
        kind: 'device_offline',
        channels: '["email"]',
        thresholdPercent: null,
        windowMinutes: null,
        minJobs: null,
        createdAt: T0,
      };
      assert.ok(await store.webhooks.createRule(rule, 50));
      const alert = (id: string): AlertsTable => ({
        id,
        organizationId: org,
        ruleId: rule.id,
        kind: rule.kind,
        subjectId: 'dev_1',
        state: 'open',
        details: '{"event":"device.offline"}',
        openedAt: T0,
        resolvedAt: null,
      });
      const mail = (a: AlertsTable) => ({ subject: `${a.state} ${a.id}`, text: a.details });
      const [first, second] = await Promise.all([
        store.webhooks.openAlert(alert('alt_1'), false, mail),
        store.webhooks.openAlert(alert('alt_2'), false, mail),
      ]);
      const opened = (first ?? second)!;
      assert.equal([first, second].filter(Boolean).length, 1);
      const resolved = await Promise.all([
        store.webhooks.resolveAlert(rule.id, 'dev_1', T0 + 1, false, mail),
        store.webhooks.resolveAlert(rule.id, 'dev_1', T0 + 1, false, mail),
      ]);
      assert.equal(resolved.filter(Boolean).length, 1);
      const rows = await store.mailOutbox.pending();
      assert.deepEqual(
        rows.map((r) => [r.organizationId, r.recipient, r.subject, r.createdAt]),
        [
          ...owners.map((o) => [org, o, `open ${opened.id}`, T0]),
          ...owners.map((o) => [org, o, `resolved ${opened.id}`, T0 + 1]),
        ],
        'the owners only (not the admin), one e-mail each per change that happened',
      );

      await assert.rejects(
        store.write(async (trx) => {
          await store.mailOutbox.enqueueIn(trx, [message(org, owners[0]!)], T0 + 2);
          throw new Error('rolled back');
        }),
      );
      assert.equal(await store.mailOutbox.size(), 4);
    });

    test('an endpoint disabled by two attempts at once mails its owners once', async () => {
      await clear();
      const owner = `o-${suffix()}@example.com`;
      const org = await organization(store, { owners: [owner] });
      const created = (await store.webhooks.createEndpoint(
        {
          id: `whk_${suffix()}`,
          organizationId: org,
          mode: 'live',
          url: 'https://hooks.example.com/in',
          events: ['job.printed'],
          description: null,
          secret: 'whsec_test',
          createdAt: T0,
          updatedAt: T0,
        },
        20,
      )) as WebhookEndpoint;
      const failure = (id: string) =>
        store.webhooks.finishAttempt(
          { id, endpointId: created.id, attempts: 3 },
          {
            at: T0,
            ok: false,
            responseStatus: 500,
            durationMs: 5,
            error: null,
            nextAttemptAt: T0 + MIN,
            disable: 'no successful delivery',
            mailOwners: { subject: 'disabled', text: created.url },
          },
        );
      const results = await Promise.all([failure('whd_1'), failure('whd_2')]);
      assert.deepEqual(results.map((r) => r.disabled).sort(), [false, true]);
      const rows = await store.mailOutbox.pending();
      assert.deepEqual(
        rows.map((r) => [r.recipient, r.subject]),
        [[owner, 'disabled']],
      );
    });
  });

  describe(`mail outbox claims across instances on ${kind}`, { skip }, () => {
    const instances = twoInstancesPerSuite(kind);

    test('claims running at once take every due row exactly once', async () => {
      const { a, b } = instances;
      const org = await organization(a, { owners: [] });
      const total = 120;
      await a.mailOutbox.enqueue(
        Array.from({ length: total }, (_, i) => message(org, `r${i}@example.com`)),
        T0,
      );
      const claimAll = async (store: Store) => {
        const ids: string[] = [];
        for (;;) {
          const rows = await store.mailOutbox.claimDue(T0, 7, LEASE);
          if (rows.length === 0) return ids;
          ids.push(...rows.map((r) => r.id));
        }
      };
      const taken = (
        await Promise.all([claimAll(a), claimAll(b), claimAll(a), claimAll(b)])
      ).flat();
      assert.equal(taken.length, total);
      assert.equal(new Set(taken).size, total, 'no row claimed twice');
      const rows = await a.mailOutbox.pending(total + 1);
      assert.ok(rows.every((r) => r.attempts === 1 && r.nextAttemptAt === T0 + LEASE));
    });
  });

  describe(`mail outbox migration 0007 on ${kind}`, { skip }, () => {
    test('an outbox an earlier release left keeps its rows (but those of deleted organizations), takes account mails (no organization, an HTML part, an expiry) after it, and follows its organizations’ deletion', async () => {
      const db = await testDatabase(kind);
      try {
        await db.olderRelease('0006_mail_outbox', async (raw) => {
          await sql`insert into organizations (id, name, created_at, updated_at)
            values ('org_1', 'Shop', ${T0}, ${T0})`.execute(raw);
          await sql`insert into mail_outbox
              (id, organization_id, recipient, subject, text, attempts, next_attempt_at, created_at, last_error)
            values ('mail_old', 'org_1', 'owner@example.com', 'Printer offline', 'body', 2, ${T0 + MIN}, ${T0}, 'refused'),
              ('mail_orphan', 'org_deleted', 'gone@example.com', 'Printer offline', 'body', 0, ${T0}, ${T0}, null)`.execute(
            raw,
          );
        });
        const store = await db.open();
        try {
          await store.mailOutbox.enqueue(
            [
              {
                organizationId: null,
                to: 'new@example.com',
                subject: 'Confirm',
                text: 'link',
                html: '<p>link</p>',
                expiresAt: T0 + 60 * MIN,
              },
            ],
            T0,
          );
          const rows = await store.mailOutbox.pending();
          assert.deepEqual(
            rows.map((r) => ({ ...r, id: r.id === 'mail_old' ? r.id : 'new' })),
            [
              {
                id: 'new',
                organizationId: null,
                recipient: 'new@example.com',
                subject: 'Confirm',
                text: 'link',
                html: '<p>link</p>',
                attempts: 0,
                nextAttemptAt: T0,
                expiresAt: T0 + 60 * MIN,
                createdAt: T0,
                lastError: null,
              },
              {
                id: 'mail_old',
                organizationId: 'org_1',
                recipient: 'owner@example.com',
                subject: 'Printer offline',
                text: 'body',
                html: null,
                attempts: 2,
                nextAttemptAt: T0 + MIN,
                expiresAt: null,
                createdAt: T0,
                lastError: 'refused',
              },
            ],
          );
          // SQLite rebuilt the table: its due index was made again.
          const indexes = await store.write((trx) =>
            (kind === 'sqlite'
              ? sql<{
                  name: string;
                }>`select name from sqlite_master where type = 'index' and tbl_name = 'mail_outbox'`
              : sql<{
                  name: string;
                }>`select indexname as name from pg_indexes where tablename = 'mail_outbox' and schemaname = current_schema()`
            ).execute(trx),
          );
          assert.ok(
            indexes.rows.some((r) => r.name === 'mail_outbox_due'),
            JSON.stringify(indexes.rows),
          );
          const claimed = await store.mailOutbox.claimDue(T0 + MIN, 10, LEASE);
          assert.deepEqual(
            claimed.map((r) => r.recipient),
            ['new@example.com', 'owner@example.com'],
          );
          // Deleting the organization deletes its unsent e-mails; account e-mails stay.
          assert.equal(await store.members.deleteOrganization('org_1'), true);
          assert.deepEqual(
            (await store.mailOutbox.pending()).map((r) => r.recipient),
            ['new@example.com'],
          );
        } finally {
          await store.close();
        }
      } finally {
        await db.cleanup();
      }
    });
  });
}
