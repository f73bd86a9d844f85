import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { SANDBOX_PRINTERS } from '../sandbox/printers.js';
import type { NewJob } from './jobs.js';
import type { WebhookDeliveriesTable } from './schema.js';
import { Store } from './store.js';
import {
  storePerSuite,
  storeKinds,
  textJobInput,
  twoInstancesPerSuite,
} from '../testing/stores.js';
import type { Job, Mode } from './types.js';
import type { OutboxEvent } from './webhook-outbox.js';
import type { WebhookEndpoint } from './webhooks.js';

const T0 = Date.parse('2026-03-10T10:00:00.000Z');

const jobInput = (organizationId: string, mode: Mode, overrides: Partial<NewJob> = {}): NewJob =>
  textJobInput(organizationId, { mode, ...overrides });

/** The sandbox's print: created, sent and printed in one write. */
const printedAtOnce = { then: [{ state: 'sending' as const }, { state: 'printed' as const }] };

/** One delivery per event and endpoint, like the service's mapping (its tests cover that). */
function oneEach(events: OutboxEvent[], endpoints: WebhookEndpoint[]): WebhookDeliveriesTable[] {
  return events.flatMap((event) =>
    endpoints
      .filter((e) => e.organizationId === event.organizationId)
      .filter(
        (e) => (event.mode === null || e.mode === event.mode) && e.events.includes(event.type),
      )
      .map((e) => ({
        id: `whd_${randomBytes(8).toString('hex')}`,
        endpointId: e.id,
        organizationId: e.organizationId,
        eventId: event.id,
        eventType: event.type,
        body: '{}',
        state: 'pending',
        attempts: 0,
        nextAttemptAt: T0,
        lastAttemptAt: null,
        responseStatus: null,
        durationMs: null,
        error: null,
        createdAt: event.createdAt,
      })),
  );
}

for (const { kind, skip } of await storeKinds()) {
  describe(`webhook outbox on ${kind}`, { skip }, () => {
    let store: Store;
    let n = 0;
    storePerSuite(kind, (opened) => {
      store = opened;
    });

    async function organization(): Promise<string> {
      return (await store.organizations.create({ name: `Shop ${++n}` }, T0, SANDBOX_PRINTERS)).id;
    }

    async function endpoint(organizationId: string, mode: Mode, events: string[]) {
      const now = T0 + ++n;
      const created = await store.webhooks.createEndpoint(
        {
          id: `whk_${randomBytes(8).toString('hex')}`,
          organizationId,
          mode,
          url: 'https://hooks.example.com/in',
          events,
          description: null,
          secret: 'whsec_test',
          createdAt: now,
          updatedAt: now,
        },
        20,
      );
      assert.notEqual(created, 'limit');
      return created as WebhookEndpoint;
    }

    /** Takes every waiting event out of the outbox (storing no delivery) and returns them. */
    async function takeAll(): Promise<OutboxEvent[]> {
      const taken: OutboxEvent[] = [];
      for (;;) {
        const { events } = await store.webhooks.outbox.drain(100, (events) => {
          taken.push(...events);
          return [];
        });
        if (events === 0) return taken;
      }
    }

    test('a job write records its webhook events only when an enabled endpoint of its mode subscribes to them', async () => {
      await takeAll();
      const org = await organization();
      await store.jobs.create(jobInput(org, 'test', printedAtOnce), T0);
      assert.equal(await store.webhooks.outbox.size(), 0, 'no endpoint: nothing written');

      await endpoint(org, 'live', ['job.printed']);
      await store.jobs.create(jobInput(org, 'test', printedAtOnce), T0);
      assert.equal(await store.webhooks.outbox.size(), 0, 'a live endpoint hears no test job');

      const hook = await endpoint(org, 'test', ['job.queued', 'job.printed']);
      const { job } = await store.jobs.create(jobInput(org, 'test', printedAtOnce), T0);
      const events = await takeAll();
      assert.deepEqual(
        events.map((e) => [e.type, e.mode, e.organizationId]),
        [
          ['job.queued', 'test', org],
          ['job.printed', 'test', org],
        ],
        'queued, sending and printed in one write: two events subscribed, sending has none',
      );
      assert.equal(new Set(events.map((e) => e.id)).size, 2);
      for (const e of events) {
        const data = e.data as { job: Job };
        assert.equal(data.job.id, job.id);
      }
      assert.deepEqual(
        events.map((e) => (e.data as { job: Job }).job.state),
        ['queued', 'printed'],
        'each event shows the job as it was at that event',
      );

      await store.webhooks.updateEndpoint(org, hook.id, { enabled: false }, T0);
      await store.jobs.create(jobInput(org, 'test', printedAtOnce), T0);
      assert.equal(await store.webhooks.outbox.size(), 0, 'a disabled endpoint hears nothing');
    });

    test('a transition writes its event in its own transaction; a rolled-back write leaves none', async () => {
      await takeAll();
      const org = await organization();
      await endpoint(org, 'live', ['job.failed', 'job.cancelled']);
      const { job } = await store.jobs.create(jobInput(org, 'live'), T0);
      await store.jobs.transition(org, 'live', job.id, 'sending', {}, T0 + 1);
      assert.equal(await store.webhooks.outbox.size(), 0, 'queued and sending are not subscribed');
      await store.jobs.transition(
        org,
        'live',
        job.id,
        'failed',
        { errorCode: 'PRINTER_OFFLINE' },
        T0 + 2,
      );
      const [failed] = await takeAll();
      assert.equal(failed?.type, 'job.failed');
      assert.equal(failed?.createdAt, T0 + 2);
      assert.equal((failed?.data as { job: Job }).job.errorCode, 'PRINTER_OFFLINE');

      const other = (await store.jobs.create(jobInput(org, 'live'), T0)).job;
      await assert.rejects(
        store.write(async (trx) => {
          await store.webhooks.outbox.recordJob(trx, { ...other, state: 'cancelled' }, [
            { state: 'cancelled', at: T0 + 3 },
          ]);
          throw new Error('the change failed after its event was written');
        }),
        /the change failed/,
      );
      assert.equal(await store.webhooks.outbox.size(), 0);
    });

    test('a real device and its printers write live events; the sandbox device’s printers test events', async () => {
      await takeAll();
      const org = await organization();
      const events = [
        'device.online',
        'device.offline',
        'printer.online',
        'printer.offline',
        'printer.paper_out',
      ];
      await endpoint(org, 'live', events);
      await endpoint(org, 'test', events);
      const device = await store.inventory.createDevice(
        org,
        { name: 'Till', os: 'linux', arch: 'arm64', agentVersion: '1.0.0' },
        T0,
      );
      await store.devices.upsertPrinters(
        org,
        device.id,
        [
          {
            agentPrinterId: 'usb-1',
            name: 'Epson',
            alias: null,
            connection: 'usb',
            kind: 'receipt',
            paper: '80mm',
            codepage: null,
            capabilities: [],
            isDefault: true,
            status: 'online',
          },
        ],
        T0 + 1,
      );
      await store.devices.setPresence(org, device.id, 'online', T0 + 2);
      await store.devices.setPresence(org, device.id, 'online', T0 + 3);
      const [sandboxPrinter] = await store.inventory.findPrinters(
        org,
        { includeSandbox: true },
        { alias: 'receipt-80' },
      );
      assert.equal(sandboxPrinter?.sandbox, true);
      await store.devices.setPrinterStatus(
        org,
        sandboxPrinter!.deviceId,
        sandboxPrinter!.agentPrinterId,
        'paper_out',
        T0 + 4,
      );
      await store.devices.setPresence(org, device.id, 'offline', T0 + 5);
      await store.devices.markPrintersOffline(org, device.id, T0 + 5);
      const taken = await takeAll();
      assert.deepEqual(
        taken.map((e) => [e.type, e.mode]),
        [
          ['printer.online', 'live'],
          ['device.online', 'live'],
          ['printer.paper_out', 'test'],
          ['device.offline', 'live'],
          ['printer.offline', 'live'],
        ],
        'one event per change of status (the second online is none)',
      );
      const paperOut = taken[2]!.data as { printer: { id: string; status: string } };
      assert.equal(paperOut.printer.id, sandboxPrinter!.id);
      assert.equal(paperOut.printer.status, 'paper_out');
    });

    test('an alert and its event commit together, and a second open alert of the same rule and subject is refused', async () => {
      await takeAll();
      const org = await organization();
      await endpoint(org, 'live', ['alert.opened', 'alert.resolved']);
      const rule = {
        id: `alr_${randomBytes(8).toString('hex')}`,
        organizationId: org,
        kind: 'device_offline',
        channels: '["webhook"]',
        thresholdPercent: null,
        windowMinutes: null,
        minJobs: null,
        createdAt: T0,
      };
      assert.ok(await store.webhooks.createRule(rule, 50));
      const alert = (id: string) => ({
        id,
        organizationId: org,
        ruleId: rule.id,
        kind: rule.kind,
        subjectId: 'dev_1',
        state: 'open',
        details: '{}',
        openedAt: T0,
        resolvedAt: null,
      });
      const [first, second] = await Promise.all([
        store.webhooks.openAlert(alert('alt_1'), true),
        store.webhooks.openAlert(alert('alt_2'), true),
      ]);
      assert.equal([first, second].filter(Boolean).length, 1, 'one of two opens wins');
      const resolved = await Promise.all([
        store.webhooks.resolveAlert(rule.id, 'dev_1', T0 + 1, true),
        store.webhooks.resolveAlert(rule.id, 'dev_1', T0 + 1, true),
      ]);
      assert.equal(resolved.filter(Boolean).length, 1, 'one of two resolves wins');
      const taken = await takeAll();
      assert.deepEqual(
        taken.map((e) => [e.type, e.mode]),
        [
          ['alert.opened', 'live'],
          ['alert.resolved', 'live'],
        ],
        'a real device’s alert is live',
      );
    });
  });

  describe(`webhook outbox intake across instances on ${kind}`, { skip }, () => {
    const instances = twoInstancesPerSuite(kind);

    test('intakes running at once store every event exactly once per endpoint', async () => {
      const { a, b } = instances;
      const org = (await a.organizations.create({ name: 'Shop' }, T0, SANDBOX_PRINTERS)).id;
      for (const mode of ['test', 'test'] as const) {
        await a.webhooks.createEndpoint(
          {
            id: `whk_${randomBytes(8).toString('hex')}`,
            organizationId: org,
            mode,
            url: 'https://hooks.example.com/in',
            events: ['job.queued', 'job.printed'],
            description: null,
            secret: 'whsec_test',
            createdAt: T0,
            updatedAt: T0,
          },
          20,
        );
      }
      const jobs = 150;
      await Promise.all(
        Array.from({ length: jobs }, (_, i) =>
          (i % 2 ? a : b).jobs.create(jobInput(org, 'test', printedAtOnce), T0 + i),
        ),
      );
      assert.equal(await a.webhooks.outbox.size(), 2 * jobs);
      const intake = async (store: Store) => {
        let stored = 0;
        for (;;) {
          const taken = await store.webhooks.outbox.drain(25, oneEach);
          stored += taken.deliveries;
          if (taken.events === 0) return stored;
        }
      };
      const stored = await Promise.all([intake(a), intake(b), intake(a), intake(b)]);
      assert.equal(
        stored.reduce((x, y) => x + y, 0),
        2 * jobs * 2,
        'two events per job, two endpoints',
      );
      assert.equal(await a.webhooks.outbox.size(), 0);
      const endpoints = await a.webhooks.listEndpoints(org, 'test', { limit: 10 });
      for (const e of endpoints) {
        const deliveries = await a.webhooks.listDeliveries(org, e.id, { limit: 1000 });
        assert.equal(deliveries.length, 2 * jobs);
        assert.equal(new Set(deliveries.map((d) => d.eventId)).size, 2 * jobs);
      }
    });
  });
}
