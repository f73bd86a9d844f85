/**
 * What a device is owed when it connects again: the jobs it was sent and did not acknowledge, then
 * its queued jobs oldest first, then cancels of jobs it was sent and that were cancelled while it
 * was away. One read finds all of it when it is smaller than a batch; a larger backlog is read
 * state by state, batch by batch. Both paths, on SQLite and PostgreSQL.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BootstrapResult } from '../services/bootstrap.js';
import type { Store } from '../storage/store.js';
import { openTestStore, storeKinds } from '../testing/stores.js';
import { startGatewayHarness, TestAgent, type GatewayHarness } from '../testing/gateway.js';

async function until(probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

for (const { kind, skip } of await storeKinds()) {
  for (const backlogBatch of [100, 3]) {
    describe(
      `a reconnecting device's backlog on ${kind}, read ${backlogBatch} at a time`,
      { skip },
      () => {
        let h: GatewayHarness;
        let store: Store;
        let cleanup: () => Promise<void>;

        before(async () => {
          ({ store, cleanup } = await openTestStore(kind));
          h = await startGatewayHarness({ store, gateway: { dispatch: { backlogBatch } } });
        });
        after(async () => {
          await h.close();
          await cleanup();
        });

        const createJob = async (org: BootstrapResult, text: string) => {
          const res = await h.post('/v1/jobs', { type: 'text', data: text }, org.liveKey);
          assert.equal(res.status, 201, JSON.stringify(res.body));
          h.clock.advance(1);
          return (res.body as { id: string }).id;
        };
        const stateOf = async (org: BootstrapResult, id: string) =>
          (await store.jobs.get(org.orgId, 'live', id))?.state;

        test('sent and unacknowledged first, then queued oldest first, then cancels; nothing acknowledged or never sent', async () => {
          const org = await h.org();
          const { deviceToken } = await h.activate(org);
          const first = await TestAgent.online(h.wsUrl, deviceToken);
          // Sent while online: one acknowledged, one not, one cancelled after it was sent.
          const acked = await createJob(org, 'acknowledged');
          const unacked = await createJob(org, 'not acknowledged');
          const cancelledAfterSending = await createJob(org, 'cancelled while away');
          for (let i = 0; i < 3; i++) {
            const { job } = await first.agent.next('job.dispatch');
            if (job.id === acked) first.agent.send({ type: 'job.ack', jobId: job.id, attempt: 1 });
          }
          for (const id of [acked, unacked, cancelledAfterSending]) {
            await until(async () => (await stateOf(org, id)) === 'sending');
          }
          // The agent holds that one for a retry of its own (queued, sent): it can be cancelled.
          first.agent.send({
            type: 'job.progress',
            jobId: cancelledAfterSending,
            attempt: 2,
            stage: 'retry_scheduled',
          });
          await until(async () => (await stateOf(org, cancelledAfterSending)) === 'queued');
          // The cloud records an acknowledgement as it receives it, before the close that follows.
          await first.agent.close();
          const cancel = await h.post(`/v1/jobs/${cancelledAfterSending}/cancel`, {}, org.liveKey);
          assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
          // Created while away: five queued, and one cancelled before it was ever sent.
          const queued: string[] = [];
          for (let i = 0; i < 5; i++) queued.push(await createJob(org, `waiting ${i}`));
          const neverSent = await createJob(org, 'cancelled before sending');
          assert.equal((await h.post(`/v1/jobs/${neverSent}/cancel`, {}, org.liveKey)).status, 200);
          for (const id of queued) assert.equal(await stateOf(org, id), 'queued');

          const { agent } = await TestAgent.online(h.wsUrl, deviceToken);
          const dispatched: string[] = [];
          for (let i = 0; i < 1 + queued.length; i++) {
            dispatched.push((await agent.next('job.dispatch')).job.id);
          }
          assert.deepEqual(dispatched, [unacked, ...queued]);
          assert.equal((await agent.next('job.cancel')).jobId, cancelledAfterSending);
          for (const id of queued) assert.equal(await stateOf(org, id), 'sending');
          // Nothing else comes: not the acknowledged job, not the one cancelled before sending.
          await assert.rejects(
            agent.next('job.dispatch', () => true, 300),
            /no job.dispatch/,
          );
          await assert.rejects(
            agent.next('job.cancel', () => true, 100),
            /no job.cancel/,
          );
          await agent.close();
        });

        test('a device owed nothing gets its welcome and no job, and a job created then reaches it at once', async () => {
          const org = await h.org();
          const { deviceToken } = await h.activate(org);
          const first = await TestAgent.online(h.wsUrl, deviceToken);
          await first.agent.close();
          const { agent } = await TestAgent.online(h.wsUrl, deviceToken);
          const id = await createJob(org, 'after the reconnect');
          assert.equal((await agent.next('job.dispatch')).job.id, id);
          await agent.close();
        });
      },
    );
  }
}
