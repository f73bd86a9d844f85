/**
 * End to end, printer groups (issue 31): the cases and the set-up shared by the SQLite file
 * (e2e-printer-groups.test.ts) and the PostgreSQL + Redis file (e2e-printer-groups-postgres.test.ts),
 * one file each so that each stays within the runner's time per file. The cloud
 * (`printwire-cloud serve`) and an agent (`printwire-agent start`) run as real processes, with
 * three fake network printers that answer DLE EOT, and groups made through the dashboard API.
 * Each job's text carries a unique marker; after every case each marker is found exactly once
 * across the three printers (at most once on paper holds across a group, and the job did print).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { startReceiver, type Receiver } from '@printwire/cloud/testing';
import { FakePrinter } from './fake-printer.js';
import { AgentProcess, CloudProcess, waitUntil, type Bootstrap } from './e2e-support.js';

const NAMES = ['Kitchen 1', 'Kitchen 2', 'Bar'] as const;
/** The agent reads an idle printer's status every 5 s: a change shows within this bound. */
const STATUS_MS = 15_000;

export interface Setup {
  /** Where jobs are posted, in turn (one cloud, or two instances). */
  clouds: CloudProcess[];
  org: Bootstrap;
  agent: AgentProcess;
  printers: FakePrinter[];
  /** Cloud printer ids, in NAMES order. */
  ids: string[];
  token: string;
  /** Receives the organization's job.queued webhooks. */
  receiver: Receiver;
}

export async function start(
  clouds: CloudProcess[],
  org: Bootstrap,
  dataDir: string,
): Promise<Setup> {
  const printers = await Promise.all(NAMES.map(() => FakePrinter.start()));
  const agent = AgentProcess.start([
    '--data-dir',
    dataDir,
    '--cloud',
    clouds[0]!.url,
    '--activation-code',
    org.activationCode,
    ...printers.flatMap((p, i) => ['--printer', p.uri(`name=${encodeURIComponent(NAMES[i]!)}`)]),
  ]);
  const ids = await waitUntil(
    'the three printers online',
    async () => {
      const listed = (await clouds[0]!.call(org.liveKey, 'GET', '/v1/printers?limit=100')).body
        .data as Array<{ id: string; name: string; status: string }>;
      const mine = NAMES.map((n) => listed.find((p) => p.name === n));
      return mine.every((p) => p?.status === 'online') ? mine.map((p) => p!.id) : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 50 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}\nagent:\n${agent.logs()}`);
  });
  const receiver = await startReceiver();
  const hook = await clouds[0]!.call(org.liveKey, 'POST', '/v1/webhooks', {
    url: receiver.url,
    events: ['job.queued'],
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  return { clouds, org, agent, printers, ids, token: await clouds[0]!.login(org), receiver };
}

/** The cases, on one setup. */
export function groupCases(s: () => Setup): void {
  let posted = 0;
  const markers: string[] = [];

  const printer = (name: (typeof NAMES)[number]) => s().printers[NAMES.indexOf(name)]!;
  const id = (name: (typeof NAMES)[number]) => s().ids[NAMES.indexOf(name)]!;
  const cloud = () => s().clouds[posted % s().clouds.length]!;
  const group = async (strategy: string, names: Array<(typeof NAMES)[number]>) => {
    const res = await s().clouds[0]!.call(
      s().token,
      'POST',
      `/orgs/${s().org.orgId}/printer-groups`,
      { name: `${strategy} ${names.join(', ')}`, strategy, printerIds: names.map(id) },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as string;
  };
  const post = async (groupId: string) => {
    const marker = `GROUP-JOB-${randomBytes(4).toString('hex')}-END`;
    markers.push(marker);
    const res = await cloud().call(s().org.liveKey, 'POST', '/v1/jobs', {
      type: 'text',
      data: `Table 4: 2 x soup\n${marker}\n`,
      options: { cut: 'none' },
      printerGroupId: groupId,
    });
    posted++;
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { id: res.body.id as string, marker, printerId: res.body.printerId as string | null };
  };
  const printedOn = (marker: string) =>
    NAMES.filter((n) => printer(n).bytes().toString('latin1').includes(marker));
  const count = (name: (typeof NAMES)[number], marker: string) =>
    printer(name).bytes().toString('latin1').split(marker).length - 1;
  const untilPrinted = async (job: { id: string }) => {
    const done = await waitUntil(
      `job ${job.id} printed`,
      async () => {
        const read = await s().clouds[0]!.call(s().org.liveKey, 'GET', `/v1/jobs/${job.id}`);
        return ['printed', 'failed'].includes(read.body.state) ? read.body : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 50 },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nagent:\n${s().agent.logs().slice(-4000)}`);
    });
    assert.equal(done.state, 'printed', JSON.stringify(done));
    return done as { printerId: string; movedFrom: string[]; printerGroupId: string };
  };
  const untilStatus = (name: (typeof NAMES)[number], ok: (status: string) => boolean) =>
    waitUntil(
      `${name}'s status`,
      async () => {
        const read = await s().clouds[0]!.call(s().org.liveKey, 'GET', `/v1/printers/${id(name)}`);
        return ok(read.body.status) ? read.body.status : undefined;
      },
      { timeoutMs: STATUS_MS, intervalMs: 50 },
    );
  /** Prints `job` and checks its bytes reached `where` exactly once and no other printer. */
  const printsOnceOn = async (
    job: { id: string; marker: string },
    where: (typeof NAMES)[number],
  ) => {
    const done = await untilPrinted(job);
    assert.equal(done.printerId, id(where));
    assert.deepEqual(printedOn(job.marker), [where]);
    assert.equal(count(where, job.marker), 1);
    return done;
  };

  test('failover: paper out on the first member, the job prints once on the second', async () => {
    const kitchen = await group('failover', ['Kitchen 1', 'Kitchen 2', 'Bar']);
    await printsOnceOn(await post(kitchen), 'Kitchen 1');
    printer('Kitchen 1').paperOut = true;
    await untilStatus('Kitchen 1', (st) => st === 'paper_out');
    const done = await printsOnceOn(await post(kitchen), 'Kitchen 2');
    assert.equal(done.printerGroupId, kitchen);
    printer('Kitchen 1').paperOut = false;
    await untilStatus('Kitchen 1', (st) => st === 'online');
    await printsOnceOn(await post(kitchen), 'Kitchen 1');
  });

  test('failover: a job the agent already holds when the paper runs out is given back and prints once on the second', async () => {
    const kitchen = await group('failover', ['Kitchen 1', 'Kitchen 2']);
    // Right after an idle status read, then past the agent's 1 s freshness of that read: the
    // agent reads the status again before the job, and the cloud does not know yet (the next
    // idle read is 5 s away). The job reaches the agent for Kitchen 1.
    await once(printer('Kitchen 1'), 'status');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    printer('Kitchen 1').paperOut = true;
    const job = await post(kitchen);
    assert.equal(job.printerId, id('Kitchen 1'));
    const done = await printsOnceOn(job, 'Kitchen 2');
    assert.deepEqual(done.movedFrom, [id('Kitchen 1')]);
    const read = await s().clouds[0]!.call(s().org.liveKey, 'GET', `/v1/jobs/${job.id}`);
    const states = (read.body.events as Array<{ state: string }>).map((e) => e.state);
    assert.deepEqual(states.slice(0, 2), ['queued', 'sending']);
    assert.deepEqual(states.slice(-3), ['queued', 'sending', 'printed']);
    // The move was announced: job.queued again, showing the new member.
    await waitUntil(
      'the job.queued webhook of the move',
      () =>
        s().receiver.received.some(
          (r) =>
            r.body.type === 'job.queued' &&
            (r.body.data.job as { id: string; printerId: string }).id === job.id &&
            (r.body.data.job as { printerId: string }).printerId === id('Kitchen 2'),
        )
          ? true
          : undefined,
      { timeoutMs: 15_000, intervalMs: 50 },
    );
    printer('Kitchen 1').paperOut = false;
    await untilStatus('Kitchen 1', (st) => st === 'online');
  });

  test('failover: cover open on the first member, the job prints once on the second', async () => {
    const kitchen = await group('failover', ['Kitchen 1', 'Kitchen 2']);
    printer('Kitchen 1').coverOpen = true;
    await untilStatus('Kitchen 1', (st) => st === 'cover_open');
    await printsOnceOn(await post(kitchen), 'Kitchen 2');
    printer('Kitchen 1').coverOpen = false;
    await untilStatus('Kitchen 1', (st) => st === 'online');
  });

  test('failover: a first member that stops answering is passed over', async () => {
    const kitchen = await group('failover', ['Kitchen 1', 'Kitchen 2']);
    await printer('Kitchen 1').refuseConnections();
    await untilStatus('Kitchen 1', (st) => st !== 'online');
    await printsOnceOn(await post(kitchen), 'Kitchen 2');
    await printer('Kitchen 1').acceptConnections();
    await untilStatus('Kitchen 1', (st) => st === 'online');
  });

  test('failover: a job the agent already holds when its printer stops answering is given back and prints once on the second', async () => {
    const kitchen = await group('failover', ['Kitchen 1', 'Kitchen 2']);
    // As above: between two idle status reads, so that the agent finds out before the job.
    await once(printer('Kitchen 1'), 'status');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await printer('Kitchen 1').refuseConnections();
    const job = await post(kitchen);
    assert.equal(job.printerId, id('Kitchen 1'));
    const done = await printsOnceOn(job, 'Kitchen 2');
    assert.deepEqual(done.movedFrom, [id('Kitchen 1')]);
    await printer('Kitchen 1').acceptConnections();
    await untilStatus('Kitchen 1', (st) => st === 'online');
  });

  test('every member out: the job waits, then prints once on the first that comes back', async () => {
    const all = await group('failover', ['Kitchen 1', 'Kitchen 2', 'Bar']);
    for (const name of NAMES) printer(name).paperOut = true;
    for (const name of NAMES) await untilStatus(name, (st) => st === 'paper_out');
    const job = await post(all);
    assert.equal(job.printerId, null);
    const waiting = await s().clouds[0]!.call(s().org.liveKey, 'GET', `/v1/jobs/${job.id}`);
    assert.equal(waiting.body.state, 'queued');
    assert.deepEqual(printedOn(job.marker), []);
    printer('Bar').paperOut = false;
    await printsOnceOn(job, 'Bar');
    printer('Kitchen 1').paperOut = false;
    printer('Kitchen 2').paperOut = false;
    await untilStatus('Kitchen 1', (st) => st === 'online');
    await untilStatus('Kitchen 2', (st) => st === 'online');
  });

  test('round-robin spreads six jobs two by two', async () => {
    const tills = await group('round-robin', ['Kitchen 1', 'Kitchen 2', 'Bar']);
    const jobs = [];
    for (let i = 0; i < 6; i++) jobs.push(await post(tills));
    const where = new Map<string, number>();
    for (const job of jobs) {
      const done = await untilPrinted(job);
      where.set(done.printerId, (where.get(done.printerId) ?? 0) + 1);
      assert.equal(printedOn(job.marker).length, 1);
    }
    assert.deepEqual(
      NAMES.map((n) => where.get(id(n))),
      [2, 2, 2],
    );
  });

  test('each job’s bytes reached exactly one printer exactly once', () => {
    for (const marker of markers) {
      const total = NAMES.reduce((sum, n) => sum + count(n, marker), 0);
      assert.equal(total, 1, marker);
    }
  });
}
