/**
 * Printers that connect by themselves, behind a caching reverse proxy (HAProxy with its HTTP cache
 * on for every response it may store, as a shop's or a host's proxy can be): a simulated Star
 * CloudPRNT printer and a simulated Epson SDP printer poll the cloud through it. Nothing of the
 * printer endpoints is served from the cache (every answer says `Cache-Control: no-store`), so a
 * job created after an empty poll is offered at the next poll, fetched alike twice, confirmed,
 * and a removed printer's address stops working at once. Skipped with a message without HAProxy.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SimulatedCloudPrnt,
  SimulatedSdp,
  startHarness,
  type Harness,
} from '@printwire/cloud/testing';
import { freePort, tempDir, waitUntil } from './e2e-support.js';
import { HAPROXY } from './storm-support.js';

const skip = existsSync(HAPROXY)
  ? false
  : `HAProxy not found at ${HAPROXY} (apt-get install haproxy)`;

describe('printers that connect by themselves, behind a caching proxy', { skip }, () => {
  let h: Harness;
  let proxy: ChildProcess;
  let proxyUrl = '';
  let orgId = '';
  let liveKey = '';
  /** Responses the proxy answered from its cache, by path. */
  const hits: string[] = [];

  before(async () => {
    h = await startHarness();
    const org = await h.org('business');
    orgId = org.orgId;
    liveKey = org.liveKey;
    const port = await freePort();
    const target = new URL(h.url);
    const config = [
      'global',
      '  maxconn 200',
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 30s',
      '  timeout server 30s',
      // A cache that keeps what it may for a minute, and says when it answered from it.
      'cache printers',
      '  total-max-size 16',
      '  max-age 60',
      'frontend shop',
      `  bind 127.0.0.1:${port}`,
      '  http-request cache-use printers',
      '  http-response cache-store printers',
      '  http-response set-header X-Cache-Status HIT if { res.cache_hit }',
      '  default_backend cloud',
      'backend cloud',
      `  server cloud ${target.hostname}:${target.port}`,
      '',
    ].join('\n');
    const file = join(tempDir('pw-pull-proxy-'), 'haproxy.cfg');
    writeFileSync(file, config);
    proxy = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    proxy.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    proxyUrl = `http://127.0.0.1:${port}`;
    await waitUntil(
      'HAProxy in front of the cloud',
      async () => {
        if (proxy.exitCode !== null) throw new Error(`haproxy exited:\n${output}`);
        const res = await fetch(`${proxyUrl}/health/live`).catch(() => undefined);
        return res?.ok ? true : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 20 },
    );
  });

  after(async () => {
    if (proxy && proxy.exitCode === null) {
      const gone = new Promise((resolve) => proxy.once('exit', resolve));
      proxy.kill('SIGTERM');
      await gone;
    }
    await h?.close();
  });

  /** The printer's address as it is typed into the printer: through the proxy. */
  async function add(protocol: 'cloudprnt' | 'sdp') {
    const created = await h.cloud.cloudPrinters.create(orgId, {
      name: `${protocol} behind a proxy`,
      protocol,
      paper: '80mm',
    });
    return { printerId: created.printer.id, url: proxyUrl + new URL(created.url).pathname };
  }

  const print = async (printerId: string, text: string) => {
    const res = await h.call('POST', '/v1/jobs', {
      key: liveKey,
      body: { printerId, type: 'text', data: text },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as string;
  };
  const state = async (id: string) =>
    (await h.call('GET', `/v1/jobs/${id}`, { key: liveKey })).body.state as string;
  const noteHit = (path: string, headers: Headers) => {
    if (headers.get('x-cache-status') === 'HIT') hits.push(path);
  };

  test('CloudPRNT through the proxy: the poll after a job is created offers it, the job is fetched alike twice and confirmed', async () => {
    const { printerId, url } = await add('cloudprnt');
    const star = new SimulatedCloudPrnt({ url });
    const empty = await star.poll();
    assert.equal(empty.status, 200);
    assert.equal(empty.headers.get('cache-control'), 'no-store');
    assert.equal(empty.body?.jobReady, false);
    const id = await print(printerId, 'Table 9 through the proxy');
    const offer = await star.poll();
    assert.equal(offer.body?.jobReady, true, 'a cached empty answer would hide the job');
    const first = await star.fetchJob('application/vnd.star.starprnt', offer.body!.jobToken);
    const second = await star.fetchJob('application/vnd.star.starprnt', offer.body!.jobToken);
    noteHit('GET job', first.headers);
    noteHit('GET job again', second.headers);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.ok(first.bytes.includes(Buffer.from('Table 9 through the proxy')));
    assert.deepEqual(second.bytes, first.bytes);
    assert.equal((await star.confirm('200 OK', offer.body!.jobToken, 'GET')).status, 200);
    assert.equal(await state(id), 'printed');
    // The job is done: the same GET now answers 404, not a copy kept by the proxy.
    const after = await star.fetchJob('application/vnd.star.starprnt', offer.body!.jobToken);
    noteHit('GET job after it printed', after.headers);
    assert.equal(after.status, 404);
    assert.equal((await star.poll()).body?.jobReady, false);
    assert.deepEqual(hits, [], 'nothing was answered from the proxy cache');
  });

  test('SDP through the proxy: the job in the poll answer, its result, and a removed address refused at once', async () => {
    const { printerId, url } = await add('sdp');
    const epson = new SimulatedSdp(url);
    const empty = await epson.cycle();
    assert.equal(empty.answer.status, 200);
    assert.equal(empty.answer.headers.get('cache-control'), 'no-store');
    noteHit('SDP empty poll', empty.answer.headers);
    const id = await print(printerId, 'Bar 3 through the proxy');
    const done = await epson.cycle();
    noteHit('SDP poll with the job', done.answer.headers);
    assert.equal(done.request?.jobs.length, 1, 'the job came in the poll answer');
    assert.match(epson.paper[0]!, /Bar 3 through the proxy/);
    assert.equal(await state(id), 'printed');
    await h.cloud.cloudPrinters.remove(orgId, printerId);
    const refused = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'ConnectionType=GetRequest&ID=',
    });
    assert.equal(refused.status, 404);
    assert.deepEqual(hits, [], 'nothing was answered from the proxy cache');
  });
});
