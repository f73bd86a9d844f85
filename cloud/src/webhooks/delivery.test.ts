import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { MemoryBus } from '../bus/memory.js';
import { ManualClock } from '../lib/clock.js';
import { bootstrap } from '../services/bootstrap.js';
import { Store } from '../storage/store.js';
import type { Job, JobState, Organization } from '../storage/types.js';
import type { WebhookOptions } from './options.js';
import { WebhookService } from './service.js';
import { startReceiver, type Received, type Receiver } from '../testing/webhook-receiver.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const logger = pino({ level: 'silent' });

/** A live job as the store holds it after a change to `state`. */
function storedJob(organizationId: string, id: string, state: JobState, at: number): Job {
  return {
    id,
    organizationId,
    mode: 'live',
    idempotencyKey: null,
    deviceId: 'dev_1',
    printerId: 'prn_1',
    source: 'cloud',
    type: 'text',
    encoding: 'utf8',
    templateId: null,
    state,
    attempt: 1,
    maxAttempts: 3,
    errorCode: state === 'failed' ? 'PRINTER_OFFLINE' : null,
    errorMessage: null,
    metadata: {},
    options: {},
    contentRetained: true,
    hasPreview: false,
    createdAt: at,
    updatedAt: at,
    dispatchedAt: at,
    printedAt: state === 'printed' ? at : null,
    expiresAt: null,
    finishedAt: state === 'printed' || state === 'failed' ? at : null,
    printerGroupId: null,
    movedFrom: [],
    deliveries: 0,
  };
}

/** Verifies a delivery with node:crypto alone (not the code that signed it). */
function signedWith(secret: string, r: Received): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers['printwire-signature']));
  if (!m) return false;
  return createHmac('sha256', secret).update(`${m[1]}.${r.raw}`).digest('hex') === m[2];
}

describe('webhook deliveries', () => {
  let dir: string;
  let file: string;
  let store: Store;
  let clock: ManualClock;
  let bus: MemoryBus;
  let receiver: Receiver;
  let orgs = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'printwire-webhooks-'));
    file = join(dir, 'printwire.db');
    store = await Store.open({ url: file });
    clock = new ManualClock(Date.parse('2026-03-10T10:00:00.000Z'));
    bus = new MemoryBus();
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The cloud started again on the same database file (after `store.close()`). */
  async function restart(): Promise<WebhookService> {
    store = await Store.open({ url: file });
    return new WebhookService({ store, bus, clock, logger, options: { allowPrivate: true } });
  }

  async function setup(
    options: Partial<WebhookOptions> = {},
    mails: Array<{ to: string; subject: string }> = [],
  ) {
    // A receiver per test: earlier tests' pending retries go to a closed port, not here.
    await receiver.close();
    receiver = await startReceiver();
    const boot = await bootstrap(
      store,
      {
        email: `o${++orgs}@example.com`,
        password: 'correct horse battery',
        org: 'Shop',
        plan: 'business',
      },
      clock.now(),
    );
    const organization = (await store.organizations.get(boot.orgId)) as Organization;
    const service = new WebhookService({
      store,
      bus,
      clock,
      logger,
      mailer: { send: async (m) => void mails.push(m) },
      options: { allowPrivate: true, ...options },
    });
    const { webhook, secret } = await service.create(organization, 'live', {
      url: receiver.url,
      events: ['job.printed', 'job.failed'],
    });
    return { service, organization, webhook, secret, mails };
  }

  /** A job write: its webhook event is committed to the outbox in the same transaction. */
  async function commit(organizationId: string, jobId: string, state: JobState = 'printed') {
    const at = clock.now();
    const job = storedJob(organizationId, jobId, state, at);
    await store.write((trx) => store.webhooks.outbox.recordJob(trx, job, [{ state, at }]));
  }

  /** A job write, then the intake and every attempt due. */
  async function publish(
    service: WebhookService,
    organizationId: string,
    jobId: string,
    state?: JobState,
  ) {
    await commit(organizationId, jobId, state);
    await service.settled();
    await service.worker.drain();
  }

  test('a failing delivery is retried after 1 min, 5 min, 30 min, 2 h, 6 h and 12 h with the same body', async () => {
    const { service, organization, webhook, secret } = await setup();
    receiver.respond = () => 500;
    await publish(service, organization.id, 'job_1');
    assert.equal(receiver.received.length, 1);
    for (const [i, delay] of [MIN, 5 * MIN, 30 * MIN, 2 * HOUR, 6 * HOUR, 12 * HOUR].entries()) {
      clock.advance(delay - 1);
      await service.worker.drain();
      assert.equal(receiver.received.length, i + 1, `not before ${delay} ms`);
      clock.advance(1);
      await service.worker.drain();
      assert.equal(receiver.received.length, i + 2, `after ${delay} ms`);
    }
    clock.advance(48 * HOUR);
    await service.worker.drain();
    assert.equal(receiver.received.length, 7, 'no attempt after the last retry');
    assert.equal(new Set(receiver.received.map((r) => r.raw)).size, 1);
    assert.equal(new Set(receiver.received.map((r) => r.headers['printwire-event-id'])).size, 1);
    assert.ok(receiver.received.every((r) => signedWith(secret, r)));
    const page = await service.deliveries(organization, webhook.id, { limit: 10 });
    assert.equal(page.data.length, 1);
    assert.equal(page.data[0]!.state, 'failed');
    assert.equal(page.data[0]!.attempts, 7);
    assert.equal(page.data[0]!.responseStatus, 500);
    assert.equal(typeof page.data[0]!.durationMs, 'number');
  });

  test('a 2xx ends the retries; a 3xx is a failure (redirects are not followed)', async () => {
    const { service, organization, webhook } = await setup();
    receiver.respond = (_r, i) => (i === 0 ? 302 : 204);
    await publish(service, organization.id, 'job_2');
    clock.advance(MIN);
    await service.worker.drain();
    clock.advance(24 * HOUR);
    await service.worker.drain();
    assert.equal(receiver.received.length, 2);
    const [delivery] = (await service.deliveries(organization, webhook.id, { limit: 1 })).data;
    assert.equal(delivery!.state, 'succeeded');
    assert.equal(delivery!.responseStatus, 204);
  });

  test('an endpoint with no success for 3 days is disabled and its owners are mailed', async () => {
    const { service, organization, webhook, mails } = await setup();
    receiver.respond = () => 500;
    const start = new Date(clock.now()).toISOString();
    await publish(service, organization.id, 'job_a');
    clock.advance(3 * 24 * HOUR - 1);
    await publish(service, organization.id, 'job_b');
    let endpoint = await service.get(organization.id, webhook.id);
    assert.equal(endpoint.enabled, true, 'one millisecond short of 3 days');
    clock.advance(1);
    await publish(service, organization.id, 'job_c');
    endpoint = await service.get(organization.id, webhook.id);
    assert.equal(endpoint.enabled, false);
    assert.match(endpoint.disabledReason!, new RegExp(`no successful delivery since ${start}`));
    await service.mail!.drain(); // the e-mail went to the mail outbox with the disablement
    assert.equal(mails.length, 1);
    assert.match(mails[0]!.to, /@example\.com$/);
    // Disabled: new events are not stored for it, pending retries wait.
    const before = receiver.received.length;
    await publish(service, organization.id, 'job_d');
    clock.advance(HOUR);
    await service.worker.drain();
    assert.equal(receiver.received.length, before);
    // Enabled again: the retries continue.
    receiver.respond = () => 200;
    const enabled = await service.update(organization, webhook.id, { enabled: true });
    assert.equal(enabled.enabled, true);
    assert.equal(enabled.disabledReason, null);
    await service.worker.drain();
    assert.ok(receiver.received.length > before);
  });

  test('a success within 3 days resets the endpoint’s failure clock', async () => {
    const { service, organization, webhook } = await setup();
    receiver.respond = () => 500;
    await publish(service, organization.id, 'job_e');
    clock.advance(2 * 24 * HOUR);
    receiver.respond = () => 200;
    await publish(service, organization.id, 'job_f');
    receiver.respond = () => 500;
    clock.advance(2 * 24 * HOUR);
    await publish(service, organization.id, 'job_g');
    assert.equal((await service.get(organization.id, webhook.id)).enabled, true);
  });

  test('a restart during retries loses nothing: the reopened store continues the delivery', async () => {
    const { service, organization, webhook, secret } = await setup();
    receiver.respond = () => 503;
    await publish(service, organization.id, 'job_r');
    assert.equal(receiver.received.length, 1);
    await service.stop();
    await store.close();

    const reopened = await restart();
    receiver.respond = () => 200;
    await reopened.worker.drain();
    assert.equal(receiver.received.length, 1, 'the retry waits for its minute');
    clock.advance(MIN);
    await reopened.worker.drain();
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.received[1]!.raw, receiver.received[0]!.raw);
    assert.ok(signedWith(secret, receiver.received[1]!));
    const [delivery] = (await reopened.deliveries(organization, webhook.id, { limit: 1 })).data;
    assert.equal(delivery!.state, 'succeeded');
    assert.equal(delivery!.attempts, 2);
  });

  test('a restart after the job writes and before the intake loses no delivery; each event is stored once', async () => {
    const { service, organization, webhook } = await setup();
    // Committed with their jobs, never taken in: the cloud stops before any intake runs.
    await commit(organization.id, 'job_w1');
    await commit(organization.id, 'job_w2', 'failed');
    await commit(organization.id, 'job_w3', 'sending');
    await service.stop();
    await store.close();

    const reopened = await restart();
    assert.equal(await store.webhooks.outbox.size(), 2, 'job.printed and job.failed wait');
    await reopened.start();
    await receiver.waitFor(2);
    await reopened.settled();
    await reopened.worker.drain();
    await reopened.stop();
    assert.equal(await store.webhooks.outbox.size(), 0);
    assert.deepEqual(
      receiver.received.map((r) => [r.body.type, (r.body.data.job as { id: string }).id]),
      [
        ['job.printed', 'job_w1'],
        ['job.failed', 'job_w2'],
      ],
    );
    const page = await reopened.deliveries(organization, webhook.id, { limit: 10 });
    assert.equal(page.data.length, 2, 'one delivery per event and endpoint');
    assert.deepEqual(
      page.data.map((d) => d.state),
      ['succeeded', 'succeeded'],
    );
  });

  test('events arrive in order, and a timed-out delivery sent twice is deduplicated by its event id', async () => {
    const { service, organization } = await setup({ maxConcurrentPerEndpoint: 1, timeoutMs: 200 });
    let release: () => void = () => {};
    receiver.respond = (_r, i) =>
      i === 2 ? new Promise<number>((resolve) => (release = () => resolve(200))) : 200;
    for (let i = 0; i < 10; i++) await commit(organization.id, `job_o${i}`);
    await service.settled();
    await service.worker.drain();
    release();
    clock.advance(MIN);
    await service.worker.drain();
    assert.equal(receiver.received.length, 11, 'the timed-out one came twice');
    const seen = new Map<string, Received>();
    for (const r of receiver.received) seen.set(String(r.headers['printwire-event-id']), r);
    assert.equal(seen.size, 10);
    const firstArrivals = receiver.received
      .slice(0, 10)
      .map((r) => (r.body.data.job as { id: string }).id);
    assert.deepEqual(
      firstArrivals,
      Array.from({ length: 10 }, (_, i) => `job_o${i}`),
    );
  });

  test('a slow endpoint does not delay another endpoint’s deliveries', async () => {
    const { service, organization } = await setup({ maxConcurrentPerEndpoint: 2, timeoutMs: 5000 });
    const slow = await startReceiver();
    const hung: Array<() => void> = [];
    slow.respond = () => new Promise<number>((resolve) => hung.push(() => resolve(200)));
    await service.create(organization, 'live', { url: slow.url, events: ['job.printed'] });
    for (let i = 0; i < 10; i++) await commit(organization.id, `job_s${i}`);
    await service.settled();
    service.worker.start();
    await receiver.waitFor(10);
    await slow.waitFor(2);
    assert.equal(slow.received.length, 2, 'the slow endpoint holds only its own two slots');
    slow.respond = () => 200;
    while (hung.length) hung.shift()!();
    await slow.waitFor(10);
    await service.stop();
    await slow.close();
  });

  test('after a rotation deliveries are signed with the new secret', async () => {
    const { service, organization, webhook, secret } = await setup();
    const { secret: rotated } = await service.rotateSecret(organization, webhook.id);
    assert.notEqual(rotated, secret);
    assert.match(rotated, /^whsec_/);
    await publish(service, organization.id, 'job_k');
    assert.ok(signedWith(rotated, receiver.received[0]!));
    assert.ok(!signedWith(secret, receiver.received[0]!));
  });

  test('resend sends the same event again; webhook.test goes to one endpoint', async () => {
    const { service, organization, webhook } = await setup();
    await publish(service, organization.id, 'job_z');
    const [delivery] = (await service.deliveries(organization, webhook.id, { limit: 1 })).data;
    await service.resend(organization, webhook.id, delivery!.id);
    await service.worker.drain();
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.received[1]!.raw, receiver.received[0]!.raw);
    await service.sendTest(organization, webhook.id);
    await service.worker.drain();
    assert.equal(receiver.received[2]!.body.type, 'webhook.test');
    assert.deepEqual(receiver.received[2]!.body.data, {});
  });

  test('job states other than queued, printed, failed and cancelled send nothing', async () => {
    const { service, organization } = await setup();
    await publish(service, organization.id, 'job_x', 'sending');
    await publish(service, organization.id, 'job_x', 'queued');
    assert.equal(receiver.received.length, 0, 'job.queued is not subscribed');
    await publish(service, organization.id, 'job_x', 'failed');
    assert.deepEqual(
      receiver.received.map((r) => r.body.type),
      ['job.failed'],
    );
  });

  test('an alert rule with the e-mail channel mails the owners once when it opens', async () => {
    const { service, organization, mails } = await setup();
    await service.alerts.createRule(organization.id, {
      kind: 'printer_offline',
      channels: ['email'],
    });
    const offline = {
      type: 'printer.offline' as const,
      organizationId: organization.id,
      deviceId: 'dev_m',
      printerId: 'prn_m',
      at: new Date(clock.now()).toISOString(),
      resource: { id: 'prn_m' },
    };
    service.alerts.accept(offline);
    service.alerts.accept(offline);
    await service.alerts.settled();
    await service.mail!.drain(); // the e-mail went to the mail outbox with the alert
    assert.equal(mails.length, 1);
    assert.match(mails[0]!.subject, /alert opened: printer_offline \(prn_m\)/);
    assert.equal(receiver.received.length, 0, 'no webhook channel');
  });
});
