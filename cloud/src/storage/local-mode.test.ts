/**
 * Local mode in storage, on SQLite and PostgreSQL: migration 0008 on a database an earlier
 * release left, signing keys, and local jobs recorded from the agents' reports.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { newId } from '@printwire/shared/ids/index';
import type { LocalJobReport } from './jobs.js';
import type { Store } from './store.js';
import { storeKinds, storePerSuite, testDatabase } from '../testing/stores.js';

const T0 = Date.parse('2026-03-10T10:00:00.000Z');

function report(id: string, state: LocalJobReport['state'], step = 0): LocalJobReport {
  const events: LocalJobReport['events'] = [{ state: 'queued', errorCode: null, at: T0 }];
  if (state !== 'queued') events.push({ state: 'sending', errorCode: null, at: T0 + 1000 });
  if (state === 'printed') events.push({ state: 'printed', errorCode: null, at: T0 + 2000 });
  return {
    id,
    idempotencyKey: null,
    agentPrinterId: 'prn_local',
    type: 'receipt',
    templateId: null,
    metadata: { till: String(step) },
    state,
    attempt: state === 'queued' ? 0 : 1,
    errorCode: null,
    errorMessage: null,
    createdAt: T0,
    updatedAt: events[events.length - 1]!.at,
    printedAt: state === 'printed' ? T0 + 2000 : null,
    events,
  };
}

async function shopWithDevice(store: Store) {
  const org = await store.organizations.create({ name: 'Local shop' }, T0, []);
  const device = await store.inventory.createDevice(
    org.id,
    { name: 'till', os: 'linux', arch: 'x64', agentVersion: '1.1.0', activated: true },
    T0,
  );
  const printer = await store.inventory.createPrinter(
    org.id,
    device.id,
    { agentPrinterId: 'prn_local', name: 'Till', connection: 'tcp', kind: 'receipt' },
    T0,
  );
  return { org, device, printer };
}

for (const { kind, skip } of await storeKinds()) {
  describe(`local jobs and signing keys on ${kind}`, { skip }, () => {
    let store: Store;
    storePerSuite(kind, (opened) => {
      store = opened;
    });

    test('the first report inserts the job and counts it; the same, older or repeated reports change nothing', async () => {
      const { org, device, printer } = await shopWithDevice(store);
      const id = newId('job', T0);
      const first = await store.jobs.upsertLocal(org.id, device.id, report(id, 'queued'), T0);
      assert.equal(first.outcome, 'created');
      assert.deepEqual(
        first.events.map((e) => e.state),
        ['queued'],
      );
      assert.equal(first.job.printerId, printer.id);
      assert.equal(first.job.source, 'local');
      assert.equal(await store.organizations.liveJobsThisMonth(org.id, T0), 1);
      const same = await store.jobs.upsertLocal(org.id, device.id, report(id, 'queued'), T0);
      assert.equal(same.outcome, 'unchanged');
      assert.deepEqual(same.events, []);
      const printed = await store.jobs.upsertLocal(org.id, device.id, report(id, 'printed', 1), T0);
      assert.equal(printed.outcome, 'updated');
      assert.deepEqual(
        printed.events.map((e) => e.state),
        ['sending', 'printed'],
      );
      const older = await store.jobs.upsertLocal(org.id, device.id, report(id, 'sending'), T0);
      assert.equal(older.outcome, 'unchanged');
      const job = (await store.jobs.get(org.id, 'live', id))!;
      assert.equal(job.state, 'printed');
      assert.equal(job.printedAt, T0 + 2000);
      assert.equal(job.finishedAt, T0 + 2000);
      assert.deepEqual(job.metadata, { till: '1' });
      assert.deepEqual(
        job.events!.map((e) => e.state),
        ['queued', 'sending', 'printed'],
      );
      assert.equal(await store.organizations.liveJobsThisMonth(org.id, T0), 1);
      const byMetadata = await store.jobs.list(
        org.id,
        'live',
        { metadata: { till: '1' } },
        {
          limit: 10,
        },
      );
      assert.deepEqual(
        byMetadata.data.map((j) => j.id),
        [id],
        'metadata replaced, not doubled',
      );
      assert.equal(await store.jobs.getContent(org.id, 'live', id), undefined);
      assert.deepEqual(
        await store.devices.listJobs(org.id, device.id, 'queued', { limit: 10 }),
        [],
      );
    });

    test('a local job is counted even past the monthly quota: it already printed', async () => {
      const { org, device } = await shopWithDevice(store);
      await store.jobs.create(
        {
          organizationId: org.id,
          mode: 'live',
          idempotencyKey: null,
          deviceId: device.id,
          printerId: null,
          source: 'cloud',
          type: 'text',
          encoding: 'utf8',
          templateId: null,
          maxAttempts: 3,
          metadata: {},
          options: {},
          content: Buffer.from('x'),
          previewable: false,
          expiresAt: null,
          retentionDays: 7,
          monthlyQuota: 1,
        },
        T0,
      );
      const over = await store.jobs.upsertLocal(
        org.id,
        device.id,
        report(newId('job', T0), 'printed'),
        T0,
      );
      assert.equal(over.outcome, 'created');
      assert.equal(await store.organizations.liveJobsThisMonth(org.id, T0), 2);
    });

    test('an id already used by another organization’s or a cloud job is refused with CONFLICT', async () => {
      const mine = await shopWithDevice(store);
      const theirs = await shopWithDevice(store);
      const id = newId('job', T0);
      await store.jobs.upsertLocal(theirs.org.id, theirs.device.id, report(id, 'queued'), T0);
      await assert.rejects(
        store.jobs.upsertLocal(mine.org.id, mine.device.id, report(id, 'printed'), T0),
        (e: Error & { code?: string }) => e.code === 'CONFLICT',
      );
      assert.equal((await store.jobs.get(theirs.org.id, 'live', id))!.state, 'queued');
      assert.equal(await store.jobs.get(mine.org.id, 'live', id), undefined);
    });

    test('signing keys are listed newest first, active ones oldest first, and go with their organization', async () => {
      const { org } = await shopWithDevice(store);
      const a = await store.signingKeys.create(org.id, { name: 'a', publicKey: 'A' }, T0, 2);
      const b = await store.signingKeys.create(org.id, { name: 'b', publicKey: 'B' }, T0 + 1, 2);
      await assert.rejects(
        store.signingKeys.create(org.id, { name: 'c', publicKey: 'C' }, T0 + 2, 2),
        /at most 2 active signing keys/,
      );
      assert.deepEqual(
        (await store.signingKeys.list(org.id)).map((k) => k.id),
        [b.id, a.id],
      );
      assert.deepEqual(
        (await store.signingKeys.listActive(org.id)).map((k) => k.id),
        [a.id, b.id],
      );
      assert.equal(await store.signingKeys.revoke(org.id, a.id, T0 + 3), true);
      assert.equal(await store.signingKeys.revoke(org.id, a.id, T0 + 4), false);
      const [, revoked] = await store.signingKeys.list(org.id);
      assert.equal(revoked!.revokedAt, T0 + 3);
      await store.members.deleteOrganization(org.id);
      assert.deepEqual(await store.signingKeys.list(org.id), []);
    });
  });

  describe(`migration 0008 on ${kind}`, { skip }, () => {
    test('organizations an earlier release left get empty allowedOrigins and take signing keys', async () => {
      const db = await testDatabase(kind);
      try {
        await db.olderRelease('0007_account_mail', async (raw) => {
          await sql`insert into organizations (id, name, require_signature, created_at, updated_at)
            values ('org_old', 'Old shop', 1, ${T0}, ${T0})`.execute(raw);
        });
        const store = await db.open();
        try {
          const org = (await store.organizations.get('org_old'))!;
          assert.deepEqual(org.allowedOrigins, []);
          assert.equal(org.requireSignature, true);
          const updated = await store.organizations.update(
            'org_old',
            { allowedOrigins: ['https://shop.example.com'] },
            T0,
          );
          assert.deepEqual(updated!.allowedOrigins, ['https://shop.example.com']);
          const key = await store.signingKeys.create(
            'org_old',
            { name: 'k', publicKey: 'P' },
            T0,
            5,
          );
          assert.deepEqual(
            (await store.signingKeys.listActive('org_old')).map((k) => k.id),
            [key.id],
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
