/**
 * End to end, expiry: the cloud (`printwire-cloud serve`, with its default 60 s sweep, so only its
 * expiry timer can be on time) and agents (`printwire-agent start`) as real processes, and real
 * time: the shortest expireAfter is 60 s, so both tests wait about a minute, side by side (this
 * file runs alongside the other test files).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakePrinter } from './fake-printer.js';
import {
  AgentProcess,
  CloudProcess,
  freePort,
  tempDir,
  waitUntil,
  type Bootstrap,
  type JobView,
} from './e2e-support.js';

/** One organization with one agent and its printer. */
interface Shop {
  org: Bootstrap;
  printer: FakePrinter;
  args: string[];
  agent: AgentProcess | undefined;
}

const EXPIRE_AFTER_S = 60;
/** How late after its expiresAt a job may be failed. */
const EXPIRY_BOUND_MS = 2000;

/** Checks that the job failed EXPIRED within the bound of its expiresAt, by its own events. */
function assertExpiredOnTime(job: JobView): void {
  const failed = job.events.find((e) => e.state === 'failed');
  assert.ok(failed, 'a failed event');
  const late = Date.parse(failed.at) - Date.parse(job.expiresAt!);
  assert.ok(late >= 0, `failed ${-late} ms before its expiresAt`);
  assert.ok(late <= EXPIRY_BOUND_MS, `failed ${late} ms after its expiresAt`);
}

describe(
  'jobs that wait past their expiry with real processes',
  { concurrency: true, timeout: 240_000 },
  () => {
    let cloud: CloudProcess;
    const shops: Shop[] = [];

    const job = async (shop: Shop, id: string): Promise<JobView> =>
      (await cloud.call(shop.org.liveKey, 'GET', `/v1/jobs/${id}`)).body as JobView;
    const post = async (shop: Shop, text: string, options: Record<string, unknown> = {}) => {
      const res = await cloud.call(shop.org.liveKey, 'POST', '/v1/jobs', {
        type: 'text',
        data: text,
        options: { cut: 'none', ...options },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body as JobView;
    };
    const untilDevice = (shop: Shop, status: string) =>
      waitUntil(`device ${status}`, async () => {
        const d = (await cloud.call(shop.org.liveKey, 'GET', '/v1/devices')).body.data[0] as
          { status: string } | undefined;
        return d?.status === status ? d : undefined;
      });
    const until = (shop: Shop, id: string, what: (j: JobView) => boolean, timeoutMs: number) =>
      waitUntil(
        `job ${id}`,
        async () => {
          const j = await job(shop, id);
          return what(j) ? j : undefined;
        },
        { timeoutMs, intervalMs: 200 },
      );
    const startAgent = (shop: Shop) => (shop.agent = AgentProcess.start(shop.args));

    before(async () => {
      const env = CloudProcess.env(tempDir('pw-e2e-expiry-'), await freePort());
      for (const name of ['Offline shop', 'Jammed shop']) {
        const printer = await FakePrinter.start();
        const org = await CloudProcess.bootstrap(env, name);
        shops.push({ org, printer, args: [], agent: undefined });
      }
      cloud = await CloudProcess.start(env);
      for (const shop of shops) {
        shop.args = [
          '--data-dir',
          tempDir('pw-e2e-expiry-agent-'),
          '--cloud',
          cloud.url,
          '--activation-code',
          shop.org.activationCode,
          '--printer',
          shop.printer.uri('name=Counter'),
        ];
        startAgent(shop);
      }
      await Promise.all(shops.map((shop) => untilDevice(shop, 'online')));
    });

    after(async () => {
      for (const shop of shops) {
        await shop.agent?.kill();
        await shop.printer.stop();
      }
      await cloud.stop();
    });

    test('a job queued for an offline device fails EXPIRED at its expiry and never prints', async () => {
      const shop = shops[0]!;
      await shop.agent!.kill('SIGTERM');
      await untilDevice(shop, 'offline');
      const created = await post(shop, 'TOO LATE', { expireAfter: EXPIRE_AFTER_S });
      const expired = await until(shop, created.id, (j) => j.state === 'failed', 90_000);
      assert.equal(expired.errorCode, 'EXPIRED');
      assert.deepEqual(
        expired.events.map((e) => [e.state, e.errorCode]),
        [
          ['queued', null],
          ['failed', 'EXPIRED'],
        ],
      );
      assertExpiredOnTime(expired);
      // Back online: a new job prints, and the expired one (older, so it would go first) does not.
      startAgent(shop);
      await untilDevice(shop, 'online');
      const fresh = await post(shop, 'IN TIME');
      await until(shop, fresh.id, (j) => j.state === 'printed', 20_000);
      const printed = shop.printer.bytes().toString('latin1');
      assert.ok(printed.includes('IN TIME'));
      assert.equal(printed.includes('TOO LATE'), false);
    });

    test('a job an agent holds for retries is not printed once it expired, even when the printer is back', async () => {
      const shop = shops[1]!;
      await shop.printer.refuseConnections();
      const created = await post(shop, 'STUCK IN THE QUEUE', {
        expireAfter: EXPIRE_AFTER_S,
        maxAttempts: 10,
      });
      // The agent retries at 2, 6, 14, 30 and 62 s; the cloud's expiry timer fails the job at 60 s.
      const expired = await until(shop, created.id, (j) => j.state === 'failed', 90_000);
      assert.equal(expired.errorCode, 'EXPIRED');
      assertExpiredOnTime(expired);
      assert.ok(
        expired.events.some((e) => e.state === 'sending'),
        'the agent had taken the job',
      );
      await shop.printer.acceptConnections();
      // The agent's next attempt finds the job expired and ends it without printing.
      await waitUntil(
        'the agent to end the job EXPIRED',
        () =>
          shop
            .agent!.logs()
            .split('\n')
            .some((line) => line.includes(created.id) && line.includes('"errorCode":"EXPIRED"'))
            ? true
            : undefined,
        { timeoutMs: 30_000, intervalMs: 200 },
      );
      assert.equal(shop.printer.byteCount, 0);
      assert.equal(
        (await job(shop, created.id)).state,
        'failed',
        'the agent result changed nothing',
      );
    });
  },
);
