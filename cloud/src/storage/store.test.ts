import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrintwireError } from '@printwire/shared/errors/index';
import { SANDBOX_PRINTERS } from '../sandbox/printers.js';
import type { NewJob } from './jobs.js';
import type { Store } from './store.js';
import { DEFAULT_TEMPLATE_LIMITS } from './templates.js';
import { openTestStore, storePerSuite, storeKinds, textJobInput } from '../testing/stores.js';

const T0 = Date.parse('2026-03-10T10:00:00.000Z');

/** A live text job that expires a day after T0. */
const jobInput = (organizationId: string, overrides: Partial<NewJob> = {}): NewJob =>
  textJobInput(organizationId, { expiresAt: T0 + 86_400_000, ...overrides });

for (const { kind, skip } of await storeKinds()) {
  describe(`storage on ${kind}`, { skip }, () => {
    let store: Store;
    let orgA: string;
    let orgB: string;
    storePerSuite(kind, async (opened) => {
      store = opened;
      orgA = (await store.organizations.create({ name: 'Shop A' }, T0, SANDBOX_PRINTERS)).id;
      orgB = (await store.organizations.create({ name: 'Shop B' }, T0, SANDBOX_PRINTERS)).id;
    });

    test('a new organization gets the free plan, 7 days of retention and a sandbox with four printers', async () => {
      const org = await store.organizations.get(orgA);
      assert.equal(org?.plan, 'free');
      assert.equal(org?.retentionDays, 7);
      const printers = await store.inventory.listPrinters(
        orgA,
        { includeSandbox: true },
        {},
        { limit: 100 },
      );
      assert.deepEqual(printers.data.map((p) => p.alias).sort(), [
        'label',
        'paper-out',
        'receipt-58',
        'receipt-80',
      ]);
      const live = await store.inventory.listPrinters(
        orgA,
        { includeSandbox: false },
        {},
        { limit: 100 },
      );
      assert.equal(live.data.length, 0);
    });

    test('a job of one organization cannot be read, listed or changed through another', async () => {
      const { job } = await store.jobs.create(jobInput(orgA), T0);
      assert.equal((await store.jobs.get(orgA, 'live', job.id))?.id, job.id);
      assert.equal(await store.jobs.get(orgB, 'live', job.id), undefined);
      assert.equal(await store.jobs.getContent(orgB, 'live', job.id), undefined);
      assert.equal(await store.jobs.getForDispatch(orgB, 'live', job.id), undefined);
      const listed = await store.jobs.list(orgB, 'live', {}, { limit: 100 });
      assert.ok(!listed.data.some((j) => j.id === job.id));
      await assert.rejects(
        store.jobs.transition(orgB, 'live', job.id, 'cancelled', {}, T0),
        (e: PrintwireError) => e.code === 'JOB_NOT_FOUND',
      );
    });

    test('a live job is invisible in test mode and the other way round', async () => {
      const { job } = await store.jobs.create(jobInput(orgA, { mode: 'test' }), T0);
      assert.equal(await store.jobs.get(orgA, 'live', job.id), undefined);
      assert.equal((await store.jobs.get(orgA, 'test', job.id))?.mode, 'test');
    });

    test('the same idempotency key returns the first job, also under 20 concurrent creates', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          store.jobs.create(jobInput(orgA, { idempotencyKey: 'order-1' }), T0),
        ),
      );
      assert.equal(results.filter((r) => r.created).length, 1);
      assert.equal(new Set(results.map((r) => r.job.id)).size, 1);
      const again = await store.jobs.create(jobInput(orgB, { idempotencyKey: 'order-1' }), T0);
      assert.equal(again.created, true, 'keys are scoped per organization');
    });

    test('an idempotency key older than 24 hours names nothing any more', async () => {
      const first = await store.jobs.create(jobInput(orgA, { idempotencyKey: 'old' }), T0);
      const within = await store.jobs.create(
        jobInput(orgA, { idempotencyKey: 'old' }),
        T0 + 24 * 3_600_000 - 1,
      );
      assert.equal(within.job.id, first.job.id);
      const later = await store.jobs.create(
        jobInput(orgA, { idempotencyKey: 'old' }),
        T0 + 24 * 3_600_000,
      );
      assert.equal(later.created, true);
      assert.notEqual(later.job.id, first.job.id);
    });

    test('the monthly quota admits exactly its number of live jobs, and test jobs do not count', async () => {
      const org = (await store.organizations.create({ name: 'Quota' }, T0, [])).id;
      await store.jobs.create(jobInput(org, { monthlyQuota: 2 }), T0);
      await store.jobs.create(jobInput(org, { monthlyQuota: 2 }), T0);
      await store.jobs.create(jobInput(org, { monthlyQuota: 2, mode: 'test' }), T0);
      await assert.rejects(
        store.jobs.create(jobInput(org, { monthlyQuota: 2 }), T0),
        (e: PrintwireError) => e.code === 'LICENSE_LIMIT',
      );
      assert.equal(await store.organizations.liveJobsThisMonth(org, T0), 2);
      const nextMonth = Date.parse('2026-04-01T00:00:00.000Z');
      const { created } = await store.jobs.create(jobInput(org, { monthlyQuota: 2 }), nextMonth);
      assert.equal(created, true);
    });

    test('lists page newest first and a cursor stays correct while new jobs arrive', async () => {
      const org = (await store.organizations.create({ name: 'Pages' }, T0, [])).id;
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await store.jobs.create(jobInput(org), T0 + i)).job.id);
      const first = await store.jobs.list(org, 'live', {}, { limit: 2 });
      assert.deepEqual(
        first.data.map((j) => j.id),
        [ids[4], ids[3]],
      );
      await store.jobs.create(jobInput(org), T0 + 10);
      await store.jobs.create(jobInput(org), T0 + 3);
      const second = await store.jobs.list(
        org,
        'live',
        {},
        { limit: 2, cursor: first.nextCursor! },
      );
      assert.deepEqual(
        second.data.map((j) => j.id),
        [ids[2], ids[1]],
      );
      const third = await store.jobs.list(
        org,
        'live',
        {},
        { limit: 2, cursor: second.nextCursor! },
      );
      assert.deepEqual(
        third.data.map((j) => j.id),
        [ids[0]],
      );
      assert.equal(third.nextCursor, null);
    });

    test('jobs filter by metadata, state, printer, device and creation time', async () => {
      const org = (await store.organizations.create({ name: 'Filters' }, T0, [])).id;
      const a = await store.jobs.create(
        jobInput(org, {
          metadata: { order: '42', till: '1' },
          printerId: 'prn_x',
          deviceId: 'dev_x',
        }),
        T0,
      );
      await store.jobs.create(jobInput(org, { metadata: { order: '43', till: '1' } }), T0 + 1000);
      const byMeta = await store.jobs.list(
        org,
        'live',
        { metadata: { order: '42', till: '1' } },
        { limit: 10 },
      );
      assert.deepEqual(
        byMeta.data.map((j) => j.id),
        [a.job.id],
      );
      assert.equal(
        (await store.jobs.list(org, 'live', { metadata: { till: '1' } }, { limit: 10 })).data
          .length,
        2,
      );
      assert.equal(
        (await store.jobs.list(org, 'live', { printerId: 'prn_x' }, { limit: 10 })).data.length,
        1,
      );
      assert.equal(
        (await store.jobs.list(org, 'live', { deviceId: 'dev_x' }, { limit: 10 })).data.length,
        1,
      );
      assert.equal(
        (await store.jobs.list(org, 'live', { from: T0 + 1000 }, { limit: 10 })).data.length,
        1,
      );
      assert.equal(
        (await store.jobs.list(org, 'live', { to: T0 + 1000 }, { limit: 10 })).data.length,
        1,
      );
      assert.equal(
        (await store.jobs.list(org, 'live', { state: 'printed' }, { limit: 10 })).data.length,
        0,
      );
    });

    test("a printer group's jobs are listed newest first whatever member holds them, and page by cursor", async () => {
      const org = (await store.organizations.create({ name: 'Group list' }, T0, [])).id;
      const grp = 'grp_00000000000000000000000001';
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const input = jobInput(org, { printerGroupId: grp, printerId: i % 2 ? 'prn_a' : 'prn_b' });
        ids.push((await store.jobs.create(input, T0 + i)).job.id);
        await store.jobs.create(jobInput(org, { printerId: 'prn_a' }), T0 + i);
      }
      await store.jobs.create(jobInput(org, { printerGroupId: grp, mode: 'test' }), T0 + 9);
      const filter = { printerGroupId: grp };
      const first = await store.jobs.list(org, 'live', filter, { limit: 2 });
      assert.deepEqual(
        first.data.map((j) => j.id),
        [ids[4], ids[3]],
      );
      await store.jobs.create(jobInput(org, { printerGroupId: grp }), T0 + 10);
      const rest = await store.jobs.list(org, 'live', filter, {
        limit: 10,
        cursor: first.nextCursor!,
      });
      assert.deepEqual(
        rest.data.map((j) => j.id),
        [ids[2], ids[1], ids[0]],
      );
      assert.equal(rest.nextCursor, null);
      const onA = await store.jobs.list(
        org,
        'live',
        { ...filter, printerId: 'prn_a' },
        { limit: 10 },
      );
      assert.deepEqual(
        onA.data.map((j) => j.id),
        [ids[3], ids[1]],
      );
      assert.equal(
        (await store.jobs.list(org, 'test', filter, { limit: 10 })).data.length,
        1,
        'the mode still applies',
      );
      assert.equal(
        (await store.jobs.list(orgB, 'live', filter, { limit: 10 })).data.length,
        0,
        'another organization sees none',
      );
    });

    test('a finished job keeps its content for the retention days, then the sweeper deletes it', async () => {
      const { job } = await store.jobs.create(jobInput(orgA), T0);
      await store.jobs.transition(orgA, 'live', job.id, 'sending', {}, T0 + 1);
      const printed = await store.jobs.transition(orgA, 'live', job.id, 'printed', {}, T0 + 2);
      assert.equal(printed.job.printedAt, T0 + 2);
      assert.equal(printed.job.attempt, 1);
      await store.jobs.purgeContent(T0 + 2 + 7 * 86_400_000 - 1);
      assert.ok(await store.jobs.getContent(orgA, 'live', job.id));
      const kept = await store.jobs.getForDispatch(orgA, 'live', job.id);
      assert.equal(kept?.job.state, 'printed');
      assert.deepEqual(
        kept?.content,
        jobInput(orgA).content,
        'the job and its content in one read',
      );
      await store.jobs.purgeContent(T0 + 2 + 7 * 86_400_000);
      assert.equal(await store.jobs.getContent(orgA, 'live', job.id), undefined);
      const gone = await store.jobs.getForDispatch(orgA, 'live', job.id);
      assert.equal(gone?.job.id, job.id);
      assert.equal(gone?.content, undefined, 'the job without its deleted content');
      assert.equal((await store.jobs.get(orgA, 'live', job.id))?.contentRetained, false);
      const events = (await store.jobs.get(orgA, 'live', job.id))?.events?.map((e) => e.state);
      assert.deepEqual(events, ['queued', 'sending', 'printed']);
    });

    test('with retention 0 the content is gone as soon as the job finishes', async () => {
      const { job } = await store.jobs.create(
        jobInput(orgA, {
          mode: 'test',
          retentionDays: 0,
          previewable: true,
          then: [{ state: 'sending' }, { state: 'printed' }],
        }),
        T0,
      );
      assert.equal(job.state, 'printed');
      assert.equal(job.contentRetained, false);
      assert.equal(job.hasPreview, false);
      assert.equal(await store.jobs.getContent(orgA, 'test', job.id), undefined);
    });

    test('a queued job past expiresAt fails with EXPIRED, and a cancelled one is left alone', async () => {
      const org = (await store.organizations.create({ name: 'Expiry' }, T0, [])).id;
      const due = await store.jobs.create(jobInput(org, { expiresAt: T0 + 60_000 }), T0);
      const cancelled = await store.jobs.create(jobInput(org, { expiresAt: T0 + 60_000 }), T0);
      await store.jobs.transition(org, 'live', cancelled.job.id, 'cancelled', {}, T0 + 1);
      assert.equal(
        (await store.jobs.expireDue(T0 + 59_999)).filter((r) => r.job.organizationId === org)
          .length,
        0,
      );
      const expired = (await store.jobs.expireDue(T0 + 60_000)).filter(
        (r) => r.job.organizationId === org,
      );
      assert.deepEqual(
        expired.map((r) => r.job.id),
        [due.job.id],
      );
      const job = await store.jobs.get(org, 'live', due.job.id);
      assert.equal(job?.state, 'failed');
      assert.equal(job?.errorCode, 'EXPIRED');
    });

    test('cancelling a finished job is JOB_ALREADY_FINISHED', async () => {
      const { job } = await store.jobs.create(jobInput(orgA), T0);
      await store.jobs.transition(orgA, 'live', job.id, 'cancelled', {}, T0);
      await assert.rejects(
        store.jobs.transition(orgA, 'live', job.id, 'cancelled', {}, T0),
        (e: PrintwireError) => e.code === 'JOB_ALREADY_FINISHED',
      );
    });

    test('queued jobs of a device come oldest first, live only', async () => {
      const org = (await store.organizations.create({ name: 'Queue' }, T0, [])).id;
      const device = await store.inventory.createDevice(
        org,
        { name: 'Till', os: 'linux', arch: 'x64', agentVersion: '1.0.0' },
        T0,
      );
      const one = await store.jobs.create(jobInput(org, { deviceId: device.id }), T0);
      const two = await store.jobs.create(jobInput(org, { deviceId: device.id }), T0 + 5);
      await store.jobs.create(jobInput(org, { deviceId: device.id, mode: 'test' }), T0 + 6);
      const queued = await store.jobs.listQueuedForDevice(org, device.id);
      assert.deepEqual(
        queued.map((j) => j.id),
        [one.job.id, two.job.id],
      );
      assert.deepEqual(await store.jobs.listQueuedForDevice(orgB, device.id), []);
    });

    test('an organization holds at most its template count and total size', async () => {
      const small = await openTestStore(kind, {
        templates: { maxTemplates: 2, maxTotalBytes: 10 },
      });
      try {
        const org = (await small.store.organizations.create({ name: 'Tpl' }, T0, [])).id;
        await small.store.templates.create(org, { name: 'a', type: 'zpl', content: '12345' }, T0);
        await assert.rejects(
          small.store.templates.create(org, { name: 'b', type: 'zpl', content: '123456' }, T0),
          (e: PrintwireError) => e.code === 'VALIDATION_FAILED' && /bytes/.test(e.message),
        );
        await small.store.templates.create(org, { name: 'b', type: 'zpl', content: '12345' }, T0);
        await assert.rejects(
          small.store.templates.create(org, { name: 'c', type: 'zpl', content: '' }, T0),
          (e: PrintwireError) =>
            e.code === 'VALIDATION_FAILED' && /at most 2 templates/.test(e.message),
        );
      } finally {
        await small.cleanup();
      }
      assert.deepEqual(DEFAULT_TEMPLATE_LIMITS, {
        maxTemplates: 200,
        maxTotalBytes: 2 * 1024 * 1024,
      });
    });

    test('a transition written with durable false is committed like any other', async () => {
      const { job } = await store.jobs.create(jobInput(orgA), T0);
      const moved = await store.jobs.transition(orgA, 'live', job.id, 'sending', {}, T0 + 1, {
        durable: false,
      });
      assert.equal(moved.job.state, 'sending');
      assert.equal((await store.jobs.get(orgA, 'live', job.id))?.state, 'sending');
      // A durable write of the same job follows it as usual.
      await store.jobs.transition(orgA, 'live', job.id, 'printed', {}, T0 + 2);
      assert.equal((await store.jobs.get(orgA, 'live', job.id))?.state, 'printed');
    });

    test('an API key is found by its hash and names its organization', async () => {
      const key = await store.organizations.createApiKey(
        orgA,
        {
          name: 'k',
          mode: 'test',
          scopes: ['jobs:read'],
          keyHash: `hash-${kind}`,
          prefix: 'pw_test_ab',
        },
        T0,
      );
      const found = await store.organizations.findApiKeyByHash(`hash-${kind}`);
      assert.equal(found?.apiKey.id, key.id);
      assert.equal(found?.organization.id, orgA);
      assert.deepEqual(found?.apiKey.scopes, ['jobs:read']);
      assert.equal(await store.organizations.revokeApiKey(orgB, key.id, T0), false);
      assert.equal(await store.organizations.revokeApiKey(orgA, key.id, T0), true);
      assert.equal(
        (await store.organizations.findApiKeyByHash(`hash-${kind}`))?.apiKey.revokedAt,
        T0,
      );
    });
  });
}
