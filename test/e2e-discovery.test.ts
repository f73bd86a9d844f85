/**
 * End to end, printers found while the agent runs: the cloud (`printwire-cloud serve`) and agents
 * (`printwire-agent start`) as real processes, and a private cupsd (its own port and folders)
 * whose queues come and go. One agent looks at the real cadence (every 30 s), the other every
 * second (PRINTWIRE_AGENT_DISCOVERY_INTERVAL_MS), so that removal and hiding are not waited for
 * at 30 s each; both run side by side.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { privateCupsForTests, type CupsTestQueue, type PrivateCups } from './cups.js';
import {
  AgentProcess,
  CloudProcess,
  freePort,
  tempDir,
  waitUntil,
  type Bootstrap,
  type JobView,
} from './e2e-support.js';

interface PrinterView {
  id: string;
  agentPrinterId: string;
  name: string;
  kind: string;
  connection: string;
  capabilities: string[];
  status: string;
}

interface Shop {
  org: Bootstrap;
  dataDir: string;
  agent?: AgentProcess;
  deviceId?: string;
}

describe(
  'printers found by a running agent with real processes',
  { concurrency: true, timeout: 240_000 },
  () => {
    let cups: PrivateCups | null = null;
    let skipReason = '';
    let cloud: CloudProcess;
    const queues: CupsTestQueue[] = [];
    const shops: Record<'slow' | 'fast', Shop> = {} as Record<'slow' | 'fast', Shop>;

    const printers = async (shop: Shop) =>
      (
        await cloud.call(
          shop.org.liveKey,
          'GET',
          `/v1/printers?deviceId=${shop.deviceId}&limit=100`,
        )
      ).body.data as PrinterView[];
    const untilPrinter = (
      shop: Shop,
      what: string,
      match: (p: PrinterView | undefined) => boolean,
      name: string,
      timeoutMs: number,
    ) =>
      waitUntil(
        what,
        async () => {
          const list = await printers(shop);
          const found = list.find((p) => p.name === name);
          return match(found) ? (found ?? null) : undefined;
        },
        { timeoutMs, intervalMs: 200 },
      ).catch((error: Error) => {
        throw new Error(`${error.message}\nagent:\n${shop.agent?.logs()}`);
      });
    const addQueue = async (name: string) => {
      const queue = await cups!.addQueue(`${name}_${process.pid}`);
      queues.push(queue);
      return queue;
    };

    before(async () => {
      ({ cups, skipReason } = await privateCupsForTests());
      if (!cups) return;
      const env = CloudProcess.env(tempDir('pw-e2e-discovery-'), await freePort());
      shops.slow = { org: await CloudProcess.bootstrap(env, 'Slow shop'), dataDir: '' };
      shops.fast = { org: await CloudProcess.bootstrap(env, 'Fast shop'), dataDir: '' };
      cloud = await CloudProcess.start(env);
      for (const [name, shop] of Object.entries(shops)) {
        shop.dataDir = tempDir('pw-e2e-discovery-agent-');
        shop.agent = AgentProcess.start(
          [
            '--data-dir',
            shop.dataDir,
            '--cloud',
            cloud.url,
            '--activation-code',
            shop.org.activationCode,
          ],
          {
            ...cups.env,
            ...(name === 'fast' ? { PRINTWIRE_AGENT_DISCOVERY_INTERVAL_MS: '1000' } : {}),
          },
        );
      }
      for (const shop of Object.values(shops)) {
        shop.deviceId = await waitUntil(
          'device online',
          async () => {
            const d = (await cloud.call(shop.org.liveKey, 'GET', '/v1/devices')).body.data[0] as
              { id: string; status: string } | undefined;
            return d?.status === 'online' ? d.id : undefined;
          },
          { timeoutMs: 30_000, intervalMs: 100 },
        );
      }
    });

    after(async () => {
      for (const shop of Object.values(shops)) await shop.agent?.kill();
      await cloud?.stop();
      for (const queue of queues) await queue.remove();
      await cups?.stop();
    });

    test('a queue added after the agent started is listed within 40 s with kind and capabilities, and prints', async (t) => {
      if (!cups) return t.skip(skipReason);
      const shop = shops.slow;
      const queue = await addQueue('pw_added');
      const listed = (await untilPrinter(
        shop,
        'the new queue listed',
        (p) => p !== undefined,
        queue.name,
        40_000,
      ))!;
      assert.equal(listed.connection, 'system');
      assert.equal(listed.kind, 'office');
      assert.deepEqual(listed.capabilities, ['pdf', 'image', 'html', 'raw', 'status']);
      const created = await cloud.call(shop.org.liveKey, 'POST', '/v1/jobs', {
        printerId: listed.id,
        type: 'raw',
        encoding: 'base64',
        data: Buffer.from('FOUND BY ITSELF\n').toString('base64'),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const job = await waitUntil(
        'the job printed',
        async () => {
          const j = (await cloud.call(shop.org.liveKey, 'GET', `/v1/jobs/${created.body.id}`))
            .body as JobView;
          return j.state === 'printed' || j.state === 'failed' ? j : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      );
      assert.equal(job.state, 'printed', JSON.stringify(job));
      const [cupsJob] = await queue.jobs();
      assert.ok(cupsJob !== undefined, 'CUPS printed a job');
      assert.equal((await queue.output(cupsJob)).toString('latin1'), 'FOUND BY ITSELF\n');
    });

    test('a queue removed goes offline, and a hidden one is gone from the list', async (t) => {
      if (!cups) return t.skip(skipReason);
      const shop = shops.fast;
      const leaving = await addQueue('pw_leaving');
      const hiding = await addQueue('pw_hiding');
      await untilPrinter(
        shop,
        'the queue listed',
        (p) => p?.status === 'online',
        leaving.name,
        15_000,
      );
      const hidden = (await untilPrinter(
        shop,
        'the queue listed',
        (p) => p !== undefined,
        hiding.name,
        15_000,
      ))!;

      await leaving.remove();
      const offline = await untilPrinter(
        shop,
        'the removed queue offline',
        (p) => p?.status === 'offline',
        leaving.name,
        15_000,
      );
      assert.equal(offline!.kind, 'office', 'still listed, as it was');

      const said = await AgentProcess.command([
        'printers',
        'hide',
        hidden.agentPrinterId,
        '--data-dir',
        shop.dataDir,
      ]);
      assert.match(said, /hidden/);
      await untilPrinter(
        shop,
        'the hidden queue gone',
        (p) => p === undefined,
        hiding.name,
        15_000,
      );
    });
  },
);
