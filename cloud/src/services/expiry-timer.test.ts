import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import type { ManualClock } from '../lib/clock.js';
import { startHarness, type Harness } from '../testing/harness.js';
import type { BootstrapResult } from './bootstrap.js';
import type { Timers } from './expiry-timer.js';
import { Sweeper } from './sweeper.js';

/** Timers that fire when the test moves the manual clock past them. */
class ManualTimers implements Timers {
  readonly #pending = new Map<number, { at: number; fn: () => void }>();
  #next = 0;
  constructor(private readonly clock: ManualClock) {}
  set(fn: () => void, ms: number): number {
    this.#next += 1;
    this.#pending.set(this.#next, { at: this.clock.now() + ms, fn });
    return this.#next;
  }
  clear(handle: unknown): void {
    this.#pending.delete(handle as number);
  }
  /** The earliest timer due at or before `until`, removed. */
  takeDue(until: number): { at: number; fn: () => void } | undefined {
    let found: [number, { at: number; fn: () => void }] | undefined;
    for (const entry of this.#pending) if (!found || entry[1].at < found[1].at) found = entry;
    if (!found || found[1].at > until) return undefined;
    this.#pending.delete(found[0]);
    return found[1];
  }
}

describe('the expiry timer fails a job at its expiresAt', () => {
  let h: Harness;
  let org: BootstrapResult;
  let deviceId: string;
  const instances: Array<{ sweeper: Sweeper; timers: ManualTimers }> = [];

  const instance = () => {
    const timers = new ManualTimers(h.clock);
    const sweeper = new Sweeper({
      store: h.store,
      jobs: h.cloud.jobs,
      clock: h.clock,
      logger: pino({ level: 'silent' }),
      bus: h.bus,
      timers,
    });
    instances.push({ sweeper, timers });
    return sweeper;
  };
  /** Moves the clock by `ms`, firing every instance's timers in time order. */
  const advance = async (ms: number) => {
    const end = h.clock.now() + ms;
    for (;;) {
      await Promise.all(instances.map((i) => i.sweeper.expiry.idle()));
      const due = instances
        .map((i) => ({ i, t: i.timers.takeDue(end) }))
        .filter((d) => d.t !== undefined)
        .sort((a, b) => a.t!.at - b.t!.at);
      if (due.length === 0) break;
      h.clock.set(Math.max(h.clock.now(), due[0]!.t!.at));
      for (const d of due.filter((x) => x.t!.at === due[0]!.t!.at)) d.t!.fn();
    }
    h.clock.set(end);
  };
  const create = async (expireAfter: number) => {
    const res = await h.call('POST', '/v1/jobs', {
      key: org.liveKey,
      body: { type: 'text', data: 'hello', deviceId, options: { expireAfter } },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; expiresAt: string };
  };
  const get = async (id: string) =>
    (await h.call('GET', `/v1/jobs/${id}`, { key: org.liveKey })).body as {
      state: string;
      errorCode: string | null;
      events: Array<{ state: string; errorCode: string | null; at: string }>;
    };
  const failedEvents = (id: string) =>
    h.events.filter((e) => e.jobId === id && e.state === 'failed' && e.errorCode === 'EXPIRED');

  before(async () => {
    h = await startHarness();
    org = await h.org('starter');
    deviceId = (
      await h.store.inventory.createDevice(
        org.orgId,
        { name: 'Till', os: 'linux', arch: 'x64', agentVersion: '1.0.0' },
        h.clock.now(),
      )
    ).id;
  });
  after(async () => {
    for (const i of instances) await i.sweeper.stop();
    await h.close();
  });

  test('a queued job fails with EXPIRED when its expiresAt comes, not at a later sweep', async () => {
    const sweeper = instance();
    await sweeper.expiry.start();
    assert.equal(sweeper.expiry.dueAt, null, 'nothing queued: not armed');
    const job = await create(60);
    assert.equal(sweeper.expiry.dueAt, Date.parse(job.expiresAt));
    await advance(59_999);
    assert.equal((await get(job.id)).state, 'queued');
    await advance(1);
    const failed = await get(job.id);
    assert.equal(failed.state, 'failed');
    assert.equal(failed.errorCode, 'EXPIRED');
    assert.equal(failed.events.at(-1)!.at, job.expiresAt, 'failed at its expiresAt exactly');
    assert.equal(failedEvents(job.id).length, 1, 'job.failed published');
    assert.equal(sweeper.expiry.dueAt, null);
    await sweeper.stop();
  });

  test('the timer moves to an earlier job when one is created, and on when the job it waits for leaves the queue', async () => {
    const sweeper = instance();
    await sweeper.expiry.start();
    const late = await create(600);
    assert.equal(sweeper.expiry.dueAt, Date.parse(late.expiresAt));
    const early = await create(120);
    assert.equal(sweeper.expiry.dueAt, Date.parse(early.expiresAt));
    const cancel = await h.call('POST', `/v1/jobs/${early.id}/cancel`, { key: org.liveKey });
    assert.equal(cancel.status, 200);
    await sweeper.expiry.idle();
    assert.equal(sweeper.expiry.dueAt, Date.parse(late.expiresAt));
    await advance(600_000);
    assert.equal((await get(late.id)).errorCode, 'EXPIRED');
    assert.equal((await get(early.id)).state, 'cancelled');
    await sweeper.stop();
  });

  test('two instances armed for the same job fail it once; a restarted one arms from the store', async () => {
    const job = await create(90);
    const first = instance();
    const second = instance();
    await Promise.all([first.expiry.start(), second.expiry.start()]);
    assert.equal(first.expiry.dueAt, Date.parse(job.expiresAt), 'armed from the store at start');
    assert.equal(second.expiry.dueAt, Date.parse(job.expiresAt));
    await advance(90_000);
    const failed = await get(job.id);
    assert.deepEqual(
      failed.events.map((e) => [e.state, e.errorCode]),
      [
        ['queued', null],
        ['failed', 'EXPIRED'],
      ],
    );
    assert.equal(failedEvents(job.id).length, 1);
  });
});
