/**
 * Printer groups through the real gateway (WebSocket agents of the protocol, real store): a job
 * goes to the member the strategy picks from the printers' live status, waits when none is
 * ready, and moves only when the agent gives it back (job.withdrawn) or never acknowledged it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PROTOCOL_VERSION,
  type CloudMessageOf,
  type PrinterInfo,
} from '@printwire/shared/protocol/index';
import type { BootstrapResult } from '../services/bootstrap.js';
import { hashSecret } from '../services/api-keys.js';
import type { GroupStrategy, Job } from '../storage/types.js';
import {
  printerInfo,
  startGatewayHarness,
  TestAgent,
  until,
  type GatewayHarness,
} from '../testing/gateway.js';

describe('printer groups through the gateway', () => {
  let h: GatewayHarness;

  before(async () => {
    h = await startGatewayHarness();
  });
  after(() => h.close());

  let codes = 0;
  /** An agent with `printers` online; `features` as it announces them in hello (null: none, an older agent). */
  async function agentWith(
    org: BootstrapResult,
    printers: PrinterInfo[],
    features: string[] | null = ['job.withdraw'],
  ): Promise<{ agent: TestAgent; deviceId: string }> {
    const code = `GRP-${++codes}-${Date.now()}`;
    await h.store.organizations.createActivationCode(
      org.orgId,
      { codeHash: hashSecret(code), name: null, expiresAt: h.clock.now() + 3_600_000 },
      h.clock.now(),
    );
    const res = await h.post('/agent/v1/activate', {
      code,
      name: 'till',
      os: 'linux',
      arch: 'x64',
      agentVersion: '1.2.0',
    });
    const { deviceId, deviceToken } = res.body as { deviceId: string; deviceToken: string };
    const agent = await TestAgent.connect(h.wsUrl, deviceToken);
    agent.send({
      type: 'hello',
      id: 'hello-1',
      protocolVersion: PROTOCOL_VERSION,
      agentVersion: '1.2.0',
      os: 'linux',
      arch: 'x64',
      hostname: 'till',
      printers,
      ...(features ? { features } : {}),
    });
    await agent.next('welcome');
    return { agent, deviceId };
  }

  async function groupOf(
    org: BootstrapResult,
    deviceIds: string[],
    agentPrinterIds: string[],
    strategy: GroupStrategy,
  ): Promise<{ id: string; printerIds: string[] }> {
    const printers = (
      await Promise.all(deviceIds.map((d) => h.store.devices.listPrinters(org.orgId, d)))
    ).flat();
    const printerIds = agentPrinterIds.map((a) => printers.find((p) => p.agentPrinterId === a)!.id);
    const group = await h.store.printerGroups.create(
      org.orgId,
      { name: 'Kitchen', strategy, printerIds },
      h.clock.now(),
    );
    return { id: group.id, printerIds };
  }

  const post = async (org: BootstrapResult, groupId: string, text: string) => {
    const res = await h.post(
      '/v1/jobs',
      { type: 'text', data: text, printerGroupId: groupId },
      org.liveKey,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; printerId: string | null };
  };
  const jobOf = async (org: BootstrapResult, id: string): Promise<Job> =>
    (await h.store.jobs.get(org.orgId, 'live', id))!;
  const printerStatus = async (org: BootstrapResult, printerId: string) =>
    (await h.store.inventory.getPrinter(org.orgId, printerId, { includeSandbox: false }))?.status;
  const status = (agent: TestAgent, agentPrinterId: string, s: PrinterInfo['status']) =>
    agent.send({ type: 'printer.status', agentPrinterId, status: s, at: new Date().toISOString() });
  const ack = (agent: TestAgent, d: CloudMessageOf<'job.dispatch'>) =>
    agent.send({
      type: 'job.ack',
      jobId: d.job.id,
      attempt: d.job.attempt,
      ...(d.job.delivery !== undefined ? { delivery: d.job.delivery } : {}),
    });
  const three = ['a', 'b', 'c'].map((id) => printerInfo(id, { isDefault: false }));

  test('failover: the first ready member takes the job; paper out or cover open, the next one', async () => {
    const org = await h.org();
    const { agent, deviceId } = await agentWith(org, three);
    const group = await groupOf(org, [deviceId], ['a', 'b', 'c'], 'failover');
    await post(org, group.id, 'one');
    assert.equal((await agent.next('job.dispatch')).job.agentPrinterId, 'a');
    status(agent, 'a', 'paper_out');
    await until('a paper out', async () =>
      (await printerStatus(org, group.printerIds[0]!)) === 'paper_out' ? true : undefined,
    );
    const two = await post(org, group.id, 'two');
    assert.equal(two.printerId, group.printerIds[1]);
    assert.equal((await agent.next('job.dispatch')).job.agentPrinterId, 'b');
    status(agent, 'b', 'cover_open');
    await until('b cover open', async () =>
      (await printerStatus(org, group.printerIds[1]!)) === 'cover_open' ? true : undefined,
    );
    assert.equal((await post(org, group.id, 'three')).printerId, group.printerIds[2]);
    assert.equal((await agent.next('job.dispatch')).job.agentPrinterId, 'c');
    await agent.close();
  });

  test('no member ready: the job waits without a printer, then goes to the first that comes back', async () => {
    const org = await h.org();
    const printers = three.map((p) => ({ ...p, status: 'paper_out' as const }));
    const { agent, deviceId } = await agentWith(org, printers);
    const group = await groupOf(org, [deviceId], ['a', 'b', 'c'], 'failover');
    const job = await post(org, group.id, 'wait');
    assert.equal(job.printerId, null);
    status(agent, 'b', 'online');
    const d = await agent.next('job.dispatch');
    assert.equal(d.job.id, job.id);
    assert.equal(d.job.agentPrinterId, 'b');
    const stored = await jobOf(org, job.id);
    assert.equal(stored.printerId, group.printerIds[1]);
    assert.deepEqual(stored.movedFrom, []);
    await agent.close();
  });

  test('round-robin spreads six jobs two by two, in turn', async () => {
    const org = await h.org();
    const { agent, deviceId } = await agentWith(org, three);
    const group = await groupOf(org, [deviceId], ['a', 'b', 'c'], 'round-robin');
    const got: string[] = [];
    for (let i = 0; i < 6; i++) {
      await post(org, group.id, `rr ${i}`);
      got.push((await agent.next('job.dispatch')).job.agentPrinterId);
    }
    assert.deepEqual(got, ['a', 'b', 'c', 'a', 'b', 'c']);
    // A member out is skipped, and the turn goes on after the one that took the last job.
    status(agent, 'a', 'offline');
    await until('a offline', async () =>
      (await printerStatus(org, group.printerIds[0]!)) === 'offline' ? true : undefined,
    );
    for (let i = 0; i < 2; i++) await post(org, group.id, `rr more ${i}`);
    assert.deepEqual(
      [
        (await agent.next('job.dispatch')).job.agentPrinterId,
        (await agent.next('job.dispatch')).job.agentPrinterId,
      ],
      ['b', 'c'],
    );
    await agent.close();
  });

  test('a job the agent holds and has not started is asked back, then moves with a queued event', async () => {
    const org = await h.org();
    const { agent, deviceId } = await agentWith(org, three);
    const group = await groupOf(org, [deviceId], ['a', 'b'], 'failover');
    const job = await post(org, group.id, 'move me');
    const first = await agent.next('job.dispatch');
    assert.equal(first.job.agentPrinterId, 'a');
    ack(agent, first);
    agent.send({
      type: 'job.progress',
      jobId: job.id,
      attempt: first.job.attempt,
      stage: 'waiting',
      started: false,
      errorCode: 'PAPER_OUT',
    });
    const withdraw = await agent.next('job.withdraw');
    assert.equal(withdraw.jobId, job.id);
    agent.send({
      type: 'job.withdrawn',
      id: 'w-1',
      jobId: job.id,
      withdrawn: true,
      reason: 'not_started',
      at: new Date().toISOString(),
    });
    assert.equal((await agent.next('ack')).id, 'w-1');
    const second = await agent.next('job.dispatch');
    assert.equal(second.job.id, job.id);
    assert.equal(second.job.agentPrinterId, 'b');
    // A new delivery. This agent did not announce job.delivery: it tells dispatches apart by
    // attempt, so for it the delivery raises the attempt too (as before deliveries).
    assert.ok(second.job.delivery! > first.job.delivery!);
    assert.ok(second.job.attempt > first.job.attempt);
    // The agent sends its answer again (it had no ack yet): the job, now with b of the same
    // agent, does not move again.
    agent.send({
      type: 'job.withdrawn',
      id: 'w-1',
      jobId: job.id,
      withdrawn: true,
      reason: 'not_started',
      at: new Date().toISOString(),
    });
    assert.equal((await agent.next('ack')).id, 'w-1');
    const moved = await jobOf(org, job.id);
    assert.equal(moved.state, 'sending');
    assert.equal(moved.printerId, group.printerIds[1]);
    assert.deepEqual(moved.movedFrom, [group.printerIds[0]]);
    const read = await fetch(`${h.url}/v1/jobs/${job.id}`, {
      headers: { authorization: `Bearer ${org.liveKey}` },
    }).then(
      (r) =>
        r.json() as Promise<{
          events: Array<{ state: string; printerId?: string }>;
          movedFrom: string[];
        }>,
    );
    assert.deepEqual(
      read.events.map((e) => e.state),
      ['queued', 'sending', 'queued', 'sending'],
    );
    // The move's event names the member it went to; the others name none.
    assert.deepEqual(
      read.events.map((e) => e.printerId ?? null),
      [null, null, group.printerIds[1], null],
    );
    assert.deepEqual(read.movedFrom, [group.printerIds[0]]);
    const announced = h.events.flatMap((e) =>
      e.type === 'job.state_changed' && e.jobId === job.id && e.state === 'queued' ? [e.job] : [],
    );
    assert.equal(announced.at(-1)!.printerId, group.printerIds[1]);
    await agent.close();
  });

  /**
   * The agent's rules for a dispatch and a withdrawal (agent/src/queue/job-queue.ts `accept` and
   * `withdraw`), on a test agent: a job it gave back is remembered with the dispatch it gave
   * back, and a dispatch at or below that one (a stale re-send) is neither stored nor
   * acknowledged; the agent tells dispatches apart by `delivery` when the cloud sends it, by
   * `attempt` otherwise. It prints what it stored when told to, once.
   */
  class AgentRules {
    readonly held = new Map<string, number>();
    readonly givenBack = new Map<string, number>();
    readonly printed: string[] = [];
    private answers = 0;
    constructor(private readonly agent: TestAgent) {}

    receive(d: CloudMessageOf<'job.dispatch'>): 'stored' | 'duplicate' | 'stale' {
      const n = d.job.delivery ?? d.job.attempt;
      const back = this.givenBack.get(d.job.id);
      if (back !== undefined && n <= back) return 'stale';
      ack(this.agent, d);
      if (this.held.has(d.job.id)) return 'duplicate';
      this.held.set(d.job.id, n);
      return 'stored';
    }

    withdraw(jobId: string): string {
      const n = this.held.get(jobId);
      const id = `w-rules-${++this.answers}`;
      if (n !== undefined) {
        this.held.delete(jobId);
        this.givenBack.set(jobId, n);
      }
      const withdrawn = n !== undefined || this.givenBack.has(jobId);
      this.agent.send({
        type: 'job.withdrawn',
        id,
        jobId,
        withdrawn,
        reason: withdrawn ? 'not_started' : 'unknown_job',
        ...(withdrawn ? { delivery: this.givenBack.get(jobId) } : {}),
        at: new Date().toISOString(),
      });
      return id;
    }

    print(jobId: string, attempt: number): void {
      assert.ok(this.held.has(jobId), `the agent holds ${jobId}`);
      this.printed.push(jobId);
      this.agent.send({ type: 'job.progress', jobId, attempt, stage: 'printing', started: true });
      this.agent.send({
        type: 'job.result',
        id: `r-${jobId}`,
        jobId,
        attempt,
        outcome: 'printed',
        at: new Date().toISOString(),
      });
    }
  }

  test('a job moved back and forth more times than its maxAttempts still reaches a member, and prints once', async () => {
    const org = await h.org();
    const { agent, deviceId } = await agentWith(org, three, ['job.withdraw', 'job.delivery']);
    const group = await groupOf(org, [deviceId], ['a', 'b'], 'failover');
    const maxAttempts = 2;
    const res = await h.post(
      '/v1/jobs',
      { type: 'text', data: 'bounce', printerGroupId: group.id, options: { maxAttempts } },
      org.liveKey,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const job = res.body as { id: string };
    const rules = new AgentRules(agent);
    let d = await agent.next('job.dispatch');
    assert.equal(rules.receive(d), 'stored');
    const member = { a: group.printerIds[0]!, b: group.printerIds[1]! };
    let at: 'a' | 'b' = 'a';
    const moves = maxAttempts * 3;
    for (let i = 1; i <= moves; i++) {
      const to: 'a' | 'b' = at === 'a' ? 'b' : 'a';
      // The other member comes back, then the paper runs out on the one holding the job: asked
      // back (the agent has not started it), it moves.
      status(agent, to, 'online');
      await until(`${to} online`, async () =>
        (await printerStatus(org, member[to])) === 'online' ? true : undefined,
      );
      status(agent, at, 'paper_out');
      const withdraw = await agent.next('job.withdraw');
      assert.equal(withdraw.jobId, job.id);
      const answer = rules.withdraw(job.id);
      assert.equal((await agent.next('ack', (m) => m.id === answer)).id, answer);
      d = await agent.next('job.dispatch', (m) => m.job.id === job.id);
      assert.equal(d.job.agentPrinterId, to);
      const taken = rules.receive(d);
      assert.equal(
        taken,
        'stored',
        `move ${i}: the agent refused the dispatch as stale (attempt ${d.job.attempt}, ` +
          `delivery ${d.job.delivery}, given back ${rules.givenBack.get(job.id)})`,
      );
      // No attempt was made: a move uses none up.
      assert.equal(d.job.attempt, 1);
      at = to;
    }
    // The member holding it is ready: the agent prints it.
    rules.print(job.id, d.job.attempt);
    const done = await until('the job printed', async () => {
      const read = await jobOf(org, job.id);
      return read.state === 'printed' ? read : undefined;
    });
    assert.equal(done.printerId, member[at]);
    assert.equal(done.movedFrom.length, moves);
    assert.deepEqual(rules.printed, [job.id]);
    // Every dispatch of the job reached the agent once: none was re-sent after a move.
    assert.ok(!agent.received.some((m) => m.type === 'job.dispatch' && m.job.id === job.id));
    await agent.close();
  });

  test('a failure before the first byte uses an attempt up; the move after it does not', async () => {
    const org = await h.org();
    const { agent, deviceId } = await agentWith(org, three, ['job.withdraw', 'job.delivery']);
    const group = await groupOf(org, [deviceId], ['a', 'b'], 'failover');
    const job = await post(org, group.id, 'failed once');
    const rules = new AgentRules(agent);
    const first = await agent.next('job.dispatch');
    assert.equal(rules.receive(first), 'stored');
    assert.deepEqual([first.job.attempt, first.job.delivery], [1, 1]);
    agent.send({
      type: 'job.progress',
      jobId: job.id,
      attempt: 2,
      stage: 'retry_scheduled',
      started: false,
      errorCode: 'CONNECTION_REFUSED',
    });
    await agent.next('job.withdraw');
    const answer = rules.withdraw(job.id);
    await agent.next('ack', (m) => m.id === answer);
    const second = await agent.next('job.dispatch');
    assert.equal(second.job.agentPrinterId, 'b');
    assert.deepEqual([second.job.attempt, second.job.delivery], [2, 2]);
    assert.equal(rules.receive(second), 'stored');
    await agent.close();
  });

  test('a job that may have printed never moves: started, or kept by the agent, or an agent without job.withdraw', async () => {
    const org = await h.org();
    const { agent, deviceId } = await agentWith(org, three);
    const group = await groupOf(org, [deviceId], ['a', 'b'], 'failover');
    const job = await post(org, group.id, 'keep');
    const d = await agent.next('job.dispatch');
    ack(agent, d);
    // retry_scheduled without `started` (an older agent): may have printed.
    agent.send({
      type: 'job.progress',
      jobId: job.id,
      attempt: d.job.attempt,
      stage: 'retry_scheduled',
    });
    status(agent, 'a', 'paper_out');
    const withdraw = await agent.next('job.withdraw');
    agent.send({
      type: 'job.withdrawn',
      id: 'w-2',
      jobId: withdraw.jobId,
      withdrawn: false,
      reason: 'started',
      at: new Date().toISOString(),
    });
    await agent.next('ack');
    const kept = await jobOf(org, job.id);
    assert.equal(kept.printerId, group.printerIds[0]);
    assert.deepEqual(kept.movedFrom, []);
    await agent.close();

    const old = await h.org();
    const legacy = await agentWith(old, three, null);
    const oldGroup = await groupOf(old, [legacy.deviceId], ['a', 'b'], 'failover');
    const oldJob = await post(old, oldGroup.id, 'old agent');
    ack(legacy.agent, await legacy.agent.next('job.dispatch'));
    status(legacy.agent, 'a', 'paper_out');
    await until('a paper out', async () =>
      (await printerStatus(old, oldGroup.printerIds[0]!)) === 'paper_out' ? true : undefined,
    );
    assert.equal((await jobOf(old, oldJob.id)).printerId, oldGroup.printerIds[0]);
    assert.ok(!legacy.agent.received.some((m) => m.type === 'job.withdraw'));
    await legacy.agent.close();
  });

  test('a job sent to a device that goes away stays with it, acknowledged or not: the agent may have stored it', async () => {
    const org = await h.org();
    const one = await agentWith(org, [printerInfo('a', { isDefault: false })]);
    const two = await agentWith(org, [printerInfo('b', { isDefault: false })]);
    const group = await groupOf(org, [one.deviceId, two.deviceId], ['a', 'b'], 'failover');
    const job = await post(org, group.id, 'unacked');
    assert.equal((await one.agent.next('job.dispatch')).job.id, job.id);
    // Gone before its acknowledgement reached the cloud (it may have stored the job: the agent
    // acknowledges only after storing, and prints what it stored, also offline).
    await one.agent.close();
    // The cloud knows the first member is gone: the next group job goes to the second.
    const later = await post(org, group.id, 'later');
    const d = await two.agent.next('job.dispatch');
    assert.equal(d.job.id, later.id);
    assert.equal(d.job.agentPrinterId, 'b');
    assert.ok(
      !two.agent.received.some((m) => m.type === 'job.dispatch' && m.job.id === job.id),
      'the job that may be stored on the first device was not handed to the second',
    );
    const kept = await jobOf(org, job.id);
    assert.equal(kept.printerId, group.printerIds[0]);
    assert.deepEqual(kept.movedFrom, []);
    await two.agent.close();
  });
});
