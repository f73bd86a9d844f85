import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { InventoryChanged } from '../bus/events.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { AlertService } from './service.js';
import { startReceiver, type Receiver } from '../testing/webhook-receiver.js';

const MIN = 60_000;

describe('alerts', () => {
  let h: Harness;
  let receiver: Receiver;
  before(async () => {
    h = await startHarness();
    receiver = await startReceiver();
    await h.cloud.webhooks.start();
  });
  after(async () => {
    await h.cloud.webhooks.stop();
    await receiver.close();
    await h.close();
  });

  /** Re-checks the failure-rate rules now (on the injected clock) and waits for what follows. */
  const recheck = async () => {
    await h.cloud.webhooks.alerts.recheck();
    await settle();
  };

  const settle = async () => {
    await h.cloud.webhooks.alerts.settled();
    await h.cloud.webhooks.settled();
    await h.cloud.webhooks.worker.drain();
  };

  async function setup() {
    receiver.received.length = 0;
    const org = await h.org('business');
    const created = await h.call('POST', '/v1/webhooks', {
      key: org.liveKey,
      body: { url: receiver.url, events: ['alert.opened', 'alert.resolved'] },
    });
    assert.equal(created.status, 201);
    return org;
  }

  const inventory = (
    organizationId: string,
    type: InventoryChanged['type'],
    ids: { deviceId: string; printerId?: string },
  ): InventoryChanged => ({
    type,
    organizationId,
    deviceId: ids.deviceId,
    printerId: ids.printerId ?? null,
    at: new Date(h.clock.now()).toISOString(),
    resource: { id: ids.printerId ?? ids.deviceId },
  });

  test('a device offline alert opens once and resolves when the device is back', async () => {
    const org = await setup();
    await h.cloud.webhooks.alerts.createRule(org.orgId, {
      kind: 'device_offline',
      channels: ['webhook'],
    });
    const bus = h.cloud.webhooks.alerts;
    bus.accept(inventory(org.orgId, 'device.offline', { deviceId: 'dev_1' }));
    bus.accept(inventory(org.orgId, 'device.offline', { deviceId: 'dev_1' }));
    await settle();
    assert.deepEqual(
      receiver.received.map((r) => r.body.type),
      ['alert.opened'],
    );
    bus.accept(inventory(org.orgId, 'device.online', { deviceId: 'dev_1' }));
    bus.accept(inventory(org.orgId, 'device.online', { deviceId: 'dev_1' }));
    await settle();
    assert.deepEqual(
      receiver.received.map((r) => r.body.type),
      ['alert.opened', 'alert.resolved'],
    );
    const [opened, resolved] = receiver.received.map(
      (r) => r.body.data.alert as { id: string; state: string; subjectId: string; kind: string },
    );
    assert.equal(opened!.id, resolved!.id);
    assert.equal(opened!.state, 'open');
    assert.equal(resolved!.state, 'resolved');
    assert.equal(opened!.subjectId, 'dev_1');
    assert.equal(opened!.kind, 'device_offline');
  });

  test('paper out resolves when the printer is back online; no rule, no alert', async () => {
    const org = await setup();
    const alerts = h.cloud.webhooks.alerts;
    alerts.accept(inventory(org.orgId, 'printer.paper_out', { deviceId: 'd', printerId: 'prn_1' }));
    await settle();
    assert.equal(receiver.received.length, 0, 'no rule yet');
    await alerts.createRule(org.orgId, { kind: 'paper_out', channels: ['webhook'] });
    alerts.accept(inventory(org.orgId, 'printer.paper_out', { deviceId: 'd', printerId: 'prn_1' }));
    alerts.accept(inventory(org.orgId, 'printer.online', { deviceId: 'd', printerId: 'prn_1' }));
    await settle();
    assert.deepEqual(
      receiver.received.map((r) => r.body.type),
      ['alert.opened', 'alert.resolved'],
    );
    const list = await alerts.listAlerts(org.orgId, 10);
    assert.equal(list.length, 1);
    assert.equal(list[0]!.state, 'resolved');
  });

  test('an alert goes to the mode of its subject: a sandbox printer’s to test endpoints only', async () => {
    const org = await setup();
    const sandbox = await startReceiver();
    try {
      const created = await h.call('POST', '/v1/webhooks', {
        key: org.testKey,
        body: { url: sandbox.url, events: ['alert.opened', 'alert.resolved'] },
      });
      assert.equal(created.status, 201);
      const [virtual] = await h.store.inventory.findPrinters(
        org.orgId,
        { includeSandbox: true },
        { alias: 'receipt-80' },
      );
      const alerts = h.cloud.webhooks.alerts;
      await alerts.createRule(org.orgId, { kind: 'paper_out', channels: ['webhook'] });
      const ids = { deviceId: virtual!.deviceId, printerId: virtual!.id };
      alerts.accept(inventory(org.orgId, 'printer.paper_out', ids));
      alerts.accept(
        inventory(org.orgId, 'printer.paper_out', { deviceId: 'd', printerId: 'prn_real' }),
      );
      await settle();
      const subjects = (r: Receiver) =>
        r.received.map((x) => (x.body.data.alert as { subjectId: string }).subjectId);
      assert.deepEqual(subjects(sandbox), [virtual!.id], 'the test endpoint hears the sandbox');
      assert.deepEqual(
        subjects(receiver),
        ['prn_real'],
        'the live endpoint hears the real printer',
      );
    } finally {
      await sandbox.close();
    }
  });

  /**
   * An organization with a failure-rate rule, and a way to finish a live job of it. With
   * `ruleLater`, the rule is created when the test calls `createRule`.
   */
  async function failureRate(
    rule: { thresholdPercent: number; windowMinutes: number; minJobs: number },
    options: { ruleLater?: boolean } = {},
  ) {
    const org = await setup();
    const deviceId = (
      await h.store.inventory.createDevice(
        org.orgId,
        { name: 'Till', os: 'linux', arch: 'arm64', agentVersion: '1.0.0' },
        h.clock.now(),
      )
    ).id;
    const createRule = () =>
      h.cloud.webhooks.alerts.createRule(org.orgId, {
        kind: 'failure_rate',
        channels: ['webhook'],
        ...rule,
      });
    if (!options.ruleLater) await createRule();
    const finish = async (state: 'printed' | 'failed') => {
      const job = await h.call('POST', '/v1/jobs', {
        key: org.liveKey,
        body: { type: 'text', data: 'hello', deviceId },
      });
      assert.equal(job.status, 201, JSON.stringify(job.body));
      await h.cloud.jobs.transition(org.orgId, job.body.id, 'sending', {});
      await h.cloud.jobs.transition(
        org.orgId,
        job.body.id,
        state,
        state === 'failed' ? { errorCode: 'PRINTER_OFFLINE' } : {},
      );
      await settle();
    };
    return { org, finish, createRule };
  }

  /** The event types the organization's endpoint received (earlier tests' alerts go on). */
  const types = (organizationId: string) =>
    receiver.received
      .filter((r) => r.body.organizationId === organizationId)
      .map((r) => r.body.type);

  test('a failure-rate alert opens at the threshold over the window and resolves below it', async () => {
    const { finish } = await failureRate({ thresholdPercent: 50, windowMinutes: 60, minJobs: 2 });
    await finish('failed');
    assert.equal(receiver.received.length, 0, 'one job is fewer than minJobs');
    await finish('printed');
    assert.deepEqual(
      receiver.received.map((r) => r.body.type),
      ['alert.opened'],
      '1 of 2 failed: 50% reaches the threshold',
    );
    assert.deepEqual((receiver.received[0]!.body.data.alert as { details: unknown }).details, {
      failed: 1,
      finished: 2,
      percent: 50,
    });
    await finish('printed');
    assert.deepEqual(
      receiver.received.map((r) => r.body.type),
      ['alert.opened', 'alert.resolved'],
      '1 of 3 failed: below the threshold',
    );
  });

  test('a failure-rate alert opened by a burst of failures resolves when the burst leaves the window, with no new event', async () => {
    const { org, finish } = await failureRate({
      thresholdPercent: 50,
      windowMinutes: 10,
      minJobs: 2,
    });
    const alerts = h.cloud.webhooks.alerts;
    const burst = h.clock.now();
    for (let i = 0; i < 3; i++) await finish('failed');
    assert.deepEqual(types(org.orgId), ['alert.opened']);
    assert.equal(alerts.nextRecheckAt(org.orgId), burst + 10 * MIN + 1);

    h.clock.advance(10 * MIN);
    await recheck();
    assert.deepEqual(
      types(org.orgId),
      ['alert.opened'],
      'at exactly 10 minutes the burst still counts',
    );
    h.clock.advance(1);
    await recheck();
    assert.deepEqual(types(org.orgId), ['alert.opened', 'alert.resolved']);
    const [alert] = await alerts.listAlerts(org.orgId, 1);
    assert.equal(alert!.resolvedAt, new Date(burst + 10 * MIN + 1).toISOString());
    assert.equal(alerts.nextRecheckAt(org.orgId), undefined, 'nothing left in the window');
  });

  test('a failure-rate alert opens on time when the printed jobs that kept the rate low leave the window', async () => {
    const { org, finish } = await failureRate({
      thresholdPercent: 60,
      windowMinutes: 10,
      minJobs: 1,
    });
    const alerts = h.cloud.webhooks.alerts;
    const printed = h.clock.now();
    await finish('printed');
    h.clock.advance(5 * MIN);
    await finish('failed');
    assert.deepEqual(types(org.orgId), [], '1 of 2 failed: 50% is under 60%');
    h.clock.set(printed + 10 * MIN);
    await recheck();
    assert.deepEqual(types(org.orgId), []);
    h.clock.advance(1);
    await recheck();
    assert.deepEqual(types(org.orgId), ['alert.opened'], 'the printed job left: 1 of 1 failed');
    const opened = receiver.received.find((r) => r.body.organizationId === org.orgId)!;
    assert.deepEqual((opened.body.data.alert as { details: unknown }).details, {
      failed: 1,
      finished: 1,
      percent: 100,
    });
    assert.equal(alerts.nextRecheckAt(org.orgId), printed + 15 * MIN + 1);
  });

  test('the re-check timer follows the injected clock: it fires, and the alert resolves, with no real wait', async (t) => {
    const { org, finish } = await failureRate({
      thresholdPercent: 50,
      windowMinutes: 30,
      minJobs: 1,
    });
    const alerts = h.cloud.webhooks.alerts;
    await finish('failed');
    assert.deepEqual(types(org.orgId), ['alert.opened']);
    t.mock.timers.enable({ apis: ['setTimeout'] });
    await alerts.recheck(); // arms the (mocked) timer: 30 minutes away, so it wakes after 60 s
    h.clock.advance(30 * MIN + 1);
    t.mock.timers.tick(60_000);
    t.mock.timers.reset();
    await settle();
    assert.deepEqual(types(org.orgId), ['alert.opened', 'alert.resolved']);
    assert.equal(alerts.nextRecheckAt(org.orgId), undefined);
  });

  test('after a restart the checks resume: an alert whose window passed while the cloud was down resolves at start', async () => {
    const { org, finish } = await failureRate({
      thresholdPercent: 50,
      windowMinutes: 10,
      minJobs: 1,
    });
    const alerts = h.cloud.webhooks.alerts;
    await finish('failed');
    assert.deepEqual(types(org.orgId), ['alert.opened']);
    await alerts.stop();
    h.clock.advance(2 * 60 * MIN);
    await alerts.start();
    await settle();
    assert.deepEqual(types(org.orgId), ['alert.opened', 'alert.resolved']);
    assert.equal((await alerts.listAlerts(org.orgId, 1))[0]!.state, 'resolved');
  });

  test('a failure-rate rule created on one instance is timed by every instance, and its deletion stops every timer', async () => {
    // A second instance's alert service: same database and bus, its own timers.
    const other = new AlertService({
      store: h.store,
      bus: h.bus,
      clock: h.clock,
      logger: pino({ level: 'silent' }),
      webhooks: h.cloud.webhooks,
    });
    await other.start();
    try {
      const { org, finish, createRule } = await failureRate(
        { thresholdPercent: 50, windowMinutes: 10, minJobs: 1 },
        { ruleLater: true },
      );
      const failedAt = h.clock.now();
      await finish('failed');
      await other.settled();
      assert.equal(other.nextRecheckAt(org.orgId), undefined, 'no rule yet: nothing to time');
      const rule = await createRule(); // served by the first instance; no job finishes after it
      await other.settled();
      assert.equal(other.nextRecheckAt(org.orgId), failedAt + 10 * MIN + 1);
      await h.cloud.webhooks.alerts.deleteRule(org.orgId, rule.id);
      await other.settled();
      assert.equal(other.nextRecheckAt(org.orgId), undefined);
      assert.equal(h.cloud.webhooks.alerts.nextRecheckAt(org.orgId), undefined);
    } finally {
      await other.stop();
    }
  });

  test('a failure_rate rule without its threshold and window is refused', async () => {
    const org = await setup();
    await assert.rejects(
      h.cloud.webhooks.alerts.createRule(org.orgId, { kind: 'failure_rate', channels: ['email'] }),
      /thresholdPercent and windowMinutes/,
    );
  });
});
