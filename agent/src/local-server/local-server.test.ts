import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkJobRequest } from '@printwire/shared/contracts/job-request';
import { FakePrinter } from '../../../test/fake-printer.js';
import { Agent } from '../agent.js';
import { silentLogger } from '../logs/logger.js';
import { LocalTestClient, signRequest, testSigningKey } from '../testing/local-client.js';
import { DEFAULT_LOCAL_SETTINGS, type LocalSettings } from './local-store.js';
import type { LocalJob } from './protocol.js';
import { REFUSED_CLOSE_CODE } from './session.js';
import type { OriginPromptAnswer } from './trust.js';

const PAGE = 'https://shop.example';
const key = testSigningKey('sk_local1');
let printer: FakePrinter;
let dataDir: string;
let agent: Agent;
let port: number;
let prompt: ((origin: string) => Promise<OriginPromptAnswer>) | null = null;
const asked: string[] = [];

function settings(patch: Partial<LocalSettings>): void {
  agent.local.applyConfig({ local: { ...DEFAULT_LOCAL_SETTINGS, ...patch } });
}

async function openAgent(): Promise<void> {
  agent = await Agent.open({
    dataDir,
    printers: [printer.uri()],
    logger: silentLogger(),
    durability: 'process',
    runner: { pollIntervalMs: 0, keepOpenMs: 0 },
    localServer: {
      port: 0,
      prompt: (origin) => {
        asked.push(origin);
        return prompt ? prompt(origin) : Promise.resolve('block');
      },
    },
  });
  agent.start();
  port = (await agent.localServerReady)!;
}

function get(
  path: string,
  headers: Record<string, string> = {},
  host = '127.0.0.1',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const ca = readFileSync(join(dataDir, 'tls', 'ca.crt'), 'utf8');
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host, port, path, headers, ca, servername: 'localhost' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const connect = (origin: string) =>
  LocalTestClient.connect(`ws://127.0.0.1:${port}`, { origin, host: `localhost:${port}` });

async function finalJob(client: LocalTestClient, id: string): Promise<LocalJob> {
  const frame = await client.next(
    (f) =>
      f.type === 'event' &&
      f.event === 'job' &&
      f.data.id === id &&
      ['printed', 'failed', 'cancelled'].includes(f.data.state),
  );
  return (frame as { data: LocalJob }).data;
}

before(async () => {
  printer = await FakePrinter.start();
  dataDir = mkdtempSync(join(tmpdir(), 'pw-local-'));
  await openAgent();
});

after(async () => {
  await agent.stop();
  await printer.stop();
});

describe('the local server', () => {
  test('GET /v1/info answers over https on 127.0.0.1 and ::1 with a certificate the CA signed', async () => {
    const v4 = await get('/v1/info', { host: `localhost:${port}` });
    assert.equal(v4.status, 200);
    const info = JSON.parse(v4.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(info).sort(), [
      'agentVersion',
      'cloud',
      'deviceId',
      'localApiVersion',
      'organizationId',
    ]);
    assert.equal(info.cloud, 'not-activated');
    assert.equal(info.localApiVersion, 1);
    const v6 = await get('/v1/info', { host: `[::1]:${port}` }, '::1');
    assert.equal(v6.status, 200);
  });

  test('plain http answers on the same port', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/info`);
    assert.equal(res.status, 200);
  });

  test('a Host other than localhost, 127.0.0.1 or [::1] with the port is refused with 421', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      'localhost:1',
      `localhost.evil:${port}`,
    ]) {
      const res = await get('/v1/info', { host });
      assert.equal(res.status, 421, host);
    }
    await assert.rejects(
      LocalTestClient.connect(`ws://127.0.0.1:${port}`, { origin: PAGE, host: 'rebind.example' }),
      /421/,
    );
  });

  test('CORS: only an origin that may print gets Access-Control-Allow-Origin', async () => {
    settings({ allowedOrigins: [PAGE] });
    const allowed = await get('/v1/info', { host: `localhost:${port}`, origin: PAGE });
    assert.equal(allowed.headers['access-control-allow-origin'], PAGE);
    const foreign = await get('/v1/info', {
      host: `localhost:${port}`,
      origin: 'https://evil.example',
    });
    assert.equal(foreign.headers['access-control-allow-origin'], undefined);
    const preflight = await fetch(`http://127.0.0.1:${port}/v1/info`, {
      method: 'OPTIONS',
      headers: { origin: PAGE, 'access-control-request-private-network': 'true' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-private-network'), 'true');
  });
});

describe('the WebSocket protocol', () => {
  test('an allowed origin lists printers and prints a job through the queue, with its events', async () => {
    settings({ allowedOrigins: [PAGE] });
    const client = await connect(PAGE);
    const welcome = await client.next((f) => f.type === 'welcome');
    assert.equal((welcome as { v: number }).v, 1);
    const list = await client.request('printers.list');
    assert.equal(list.type, 'reply');
    const printers = (list as { result: { data: Array<{ agentPrinterId: string }> } }).result.data;
    assert.equal(printers.length, 1);
    printer.clear();
    const printed = await client.request('job.print', {
      type: 'text',
      data: 'hello from a page',
      metadata: { order: '1042' },
    });
    assert.equal(printed.type, 'reply', JSON.stringify(printed));
    const job = (printed as { result: LocalJob }).result;
    assert.match(job.id, /^job_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(job.source, 'local');
    const final = await finalJob(client, job.id);
    assert.equal(final.state, 'printed');
    assert.ok(printer.bytes().toString('latin1').includes('hello from a page'));
    const states = client.frames
      .filter((f) => f.type === 'event' && f.event === 'job' && f.data.id === job.id)
      .map((f) => (f as { data: LocalJob }).data.state);
    assert.deepEqual(states.slice(-2), ['sending', 'printed']);
    const record = agent.queue.localRecord(job.id)!;
    assert.deepEqual(
      record.events.map((e) => e.state),
      ['queued', 'sending', 'printed'],
    );
    assert.deepEqual(record.metadata, { order: '1042' });
    client.close();
  });

  test('a page that printed hears printer status changes and a failed job with its code', async () => {
    settings({ allowedOrigins: [PAGE] });
    const client = await connect(PAGE);
    assert.equal((await client.request('printers.list')).type, 'reply');
    await printer.refuseConnections();
    try {
      const reply = await client.request('job.print', {
        type: 'text',
        data: 'nobody listens',
        options: { maxAttempts: 1 },
      });
      const failed = await finalJob(client, (reply as { result: LocalJob }).result.id);
      assert.equal(failed.state, 'failed');
      assert.equal(failed.errorCode, 'CONNECTION_REFUSED');
      const status = await client.next(
        (f) =>
          f.type === 'event' &&
          f.event === 'printer.status' &&
          (f.data as { status: string }).status === 'offline',
      );
      assert.ok(status);
    } finally {
      await printer.acceptConnections();
    }
    client.close();
  });

  test('the same idempotency key returns the same job and prints once', async () => {
    settings({ allowedOrigins: [PAGE] });
    const client = await connect(PAGE);
    printer.clear();
    const body = { type: 'text', data: 'once only', idempotencyKey: 'order-7' };
    const first = (await client.request('job.print', body)) as { result: LocalJob };
    await finalJob(client, first.result.id);
    const second = (await client.request('job.print', body)) as { result: LocalJob };
    assert.equal(second.result.id, first.result.id);
    assert.equal(second.result.state, 'printed');
    assert.equal(printer.bytes().toString('latin1').split('once only').length - 1, 1);
    client.close();
  });

  test('a bad job, an unknown printer and an unknown job get INVALID_JOB, PRINTER_NOT_FOUND, JOB_NOT_FOUND', async () => {
    settings({ allowedOrigins: [PAGE] });
    const client = await connect(PAGE);
    const bad = await client.request('job.print', { type: 'receipt', data: 'not a document' });
    assert.equal(bad.type, 'error');
    assert.equal((bad as { code: string }).code, 'INVALID_JOB');
    const noPrinter = await client.request('job.print', {
      type: 'text',
      data: 'x',
      printer: 'nope',
    });
    assert.equal((noPrinter as { code: string }).code, 'PRINTER_NOT_FOUND');
    const noJob = await client.request('job.cancel', { jobId: 'job_unknown' });
    assert.equal((noJob as { code: string }).code, 'JOB_NOT_FOUND');
    client.close();
  });

  test('a job the cloud refuses is refused here too, every field named with the cloud’s details', async () => {
    settings({ allowedOrigins: [PAGE] });
    const client = await connect(PAGE);
    const body = {
      type: 'text',
      data: '',
      alias: 'front',
      printer: { deviceId: 'dev_1' },
      options: { codepage: 'klingon' },
    };
    const shape = await client.request('job.print', body);
    assert.equal((shape as { code: string }).code, 'INVALID_JOB');
    const expected = checkJobRequest(body, { production: false });
    assert.ok(!expected.ok);
    assert.deepEqual((shape as { details: unknown }).details, expected.issues);
    assert.match((shape as { message: string }).message, /^options\.codepage: /);
    const targets = await client.request('job.print', { ...body, options: {} });
    assert.deepEqual(
      (targets as { details: Array<{ message: string }> }).details.map((d) => d.message),
      [
        'alias: needs deviceId (or use printer: { alias })',
        'printer: name the printer by id, alias or name',
        'data: must not be empty',
      ],
    );
    client.close();
  });

  test('malformed, oversized and out-of-order messages get an error and leave the session and others working', async () => {
    settings({ allowedOrigins: [PAGE] });
    const client = await connect(PAGE);
    const other = await connect(PAGE);
    await client.next((f) => f.type === 'welcome');
    client.sendRaw('{not json');
    client.sendRaw(Buffer.from([1, 2, 3]));
    client.sendRaw(JSON.stringify({ v: 2, id: 'a', type: 'printers.list' }));
    client.sendRaw(JSON.stringify({ v: 1, id: 'b', type: 'reply' }));
    client.sendRaw(JSON.stringify({ v: 1, id: 'c', type: 'job.get' }));
    client.sendRaw('x'.repeat(8 * 1024 * 1024 + 1));
    const tooLarge = await client.next((f) => f.type === 'error' && f.code === 'TOO_LARGE');
    assert.ok(tooLarge);
    const codes = client.frames
      .filter((f) => f.type === 'error')
      .map((f) => (f as { code: string }).code);
    assert.deepEqual(codes, [
      'BAD_MESSAGE',
      'BAD_MESSAGE',
      'BAD_MESSAGE',
      'BAD_MESSAGE',
      'BAD_MESSAGE',
      'TOO_LARGE',
    ]);
    const versionError = client.frames.find((f) => f.type === 'error' && f.replyTo === 'a') as {
      message: string;
    };
    assert.match(versionError.message, /v must be 1/);
    assert.equal((await client.request('printers.list')).type, 'reply');
    assert.equal((await other.request('printers.list')).type, 'reply');
    assert.equal(client.closed, null);
    client.close();
    other.close();
  });

  test('a message of exactly the size limit is read (not TOO_LARGE)', async () => {
    settings({ allowedOrigins: [PAGE] });
    const client = await connect(PAGE);
    const filler =
      8 * 1024 * 1024 - JSON.stringify({ v: 1, id: 'e', type: 'printers.list', body: '' }).length;
    client.sendRaw(
      JSON.stringify({ v: 1, id: 'e', type: 'printers.list', body: 'y'.repeat(filler) }),
    );
    const reply = await client.next(
      (f) => (f.type === 'reply' || f.type === 'error') && f.replyTo === 'e',
    );
    assert.equal(reply.type, 'reply');
    client.close();
  });
});

describe('who may print', () => {
  test('a foreign origin gets one ORIGIN_NOT_ALLOWED frame and is closed before any request', async () => {
    settings({ allowedOrigins: [PAGE] });
    const client = await connect('https://evil.example');
    const closed = await client.whenClosed();
    assert.equal(closed.code, REFUSED_CLOSE_CODE);
    assert.equal(client.frames.length, 1);
    assert.equal((client.frames[0] as { code: string }).code, 'ORIGIN_NOT_ALLOWED');
  });

  test('requireSignature without a key refuses every page with SIGNATURE_REQUIRED', async () => {
    settings({ allowedOrigins: [PAGE], requireSignature: true });
    const client = await connect(PAGE);
    await client.whenClosed();
    assert.equal((client.frames[0] as { code: string }).code, 'SIGNATURE_REQUIRED');
  });

  test('with requireSignature and a key, unsigned requests get SIGNATURE_REQUIRED and signed ones print', async () => {
    settings({ requireSignature: true, signingKeys: [{ id: key.id, publicKey: key.publicKey }] });
    const origin = 'https://anywhere.example';
    const client = await connect(origin);
    const unsigned = await client.request('printers.list');
    assert.equal((unsigned as { code: string }).code, 'SIGNATURE_REQUIRED');
    const now = Math.floor(Date.now() / 1000);
    const auth = signRequest(key, {
      type: 'printers.list',
      origin,
      body: undefined,
      timestamp: now,
    });
    assert.equal((await client.request('printers.list', undefined, { auth })).type, 'reply');
    client.close();
  });

  test('a replayed, altered, expired or unknown-key signature is refused with its code', async () => {
    settings({ signingKeys: [{ id: key.id, publicKey: key.publicKey }] });
    const origin = 'https://signed.example';
    const client = await connect(origin);
    const now = Math.floor(Date.now() / 1000);
    const body = { type: 'text', data: 'signed' };
    const auth = signRequest(key, { type: 'job.print', origin, body, timestamp: now });
    const first = await client.request('job.print', body, { auth });
    assert.equal(first.type, 'reply', JSON.stringify(first));
    const replay = await client.request('job.print', body, { auth });
    assert.equal((replay as { code: string }).code, 'REPLAYED');
    const fresh = signRequest(key, { type: 'job.print', origin, body, timestamp: now });
    const altered = await client.request(
      'job.print',
      { ...body, data: 'changed' },
      { auth: fresh },
    );
    assert.equal((altered as { code: string }).code, 'SIGNATURE_INVALID');
    const otherOrigin = signRequest(key, { type: 'job.print', origin: PAGE, body, timestamp: now });
    assert.equal(
      ((await client.request('job.print', body, { auth: otherOrigin })) as { code: string }).code,
      'SIGNATURE_INVALID',
    );
    const old = signRequest(key, { type: 'job.print', origin, body, timestamp: now - 301 });
    assert.equal(
      ((await client.request('job.print', body, { auth: old })) as { code: string }).code,
      'SIGNATURE_EXPIRED',
    );
    const edge = signRequest(key, {
      type: 'printers.list',
      origin,
      body: undefined,
      timestamp: now - 299,
    });
    assert.equal((await client.request('printers.list', undefined, { auth: edge })).type, 'reply');
    const stranger = testSigningKey('sk_other');
    const unknown = signRequest(stranger, { type: 'job.print', origin, body, timestamp: now });
    assert.equal(
      ((await client.request('job.print', body, { auth: unknown })) as { code: string }).code,
      'SIGNATURE_INVALID',
    );
    await finalJob(client, (first as { result: LocalJob }).result.id);
    client.close();
  });

  test('a nonce is remembered across a restart of the agent', async () => {
    settings({ signingKeys: [{ id: key.id, publicKey: key.publicKey }] });
    const origin = 'https://restart.example';
    const now = Math.floor(Date.now() / 1000);
    const auth = signRequest(key, {
      type: 'printers.list',
      origin,
      body: undefined,
      timestamp: now,
    });
    let client = await connect(origin);
    assert.equal((await client.request('printers.list', undefined, { auth })).type, 'reply');
    client.close();
    await agent.stop();
    await openAgent();
    client = await connect(origin);
    const replay = await client.request('printers.list', undefined, { auth });
    assert.equal((replay as { code: string }).code, 'REPLAYED');
    client.close();
  });

  test('dev mode lets http://localhost and http://127.0.0.1 pages print unsigned, whatever the rest says', async () => {
    settings({ devModeEnabled: true, requireSignature: true });
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8000']) {
      const client = await connect(origin);
      assert.equal((await client.request('printers.list')).type, 'reply', origin);
      client.close();
    }
    const https = await connect('https://localhost:5173');
    await https.whenClosed();
    assert.equal((https.frames[0] as { code: string }).code, 'SIGNATURE_REQUIRED');
  });

  test('unsigned mode asks the person: once for the session, always kept, block kept', async () => {
    settings({ unsignedModeEnabled: true });
    asked.length = 0;
    prompt = () => Promise.resolve('once');
    const once = await connect('https://once.example');
    assert.equal((await once.request('printers.list')).type, 'reply');
    assert.equal((await once.request('printers.list')).type, 'reply');
    assert.deepEqual(asked, ['https://once.example']);
    once.close();
    prompt = () => Promise.resolve('always');
    const always = await connect('https://always.example');
    assert.equal((await always.request('printers.list')).type, 'reply');
    assert.equal(agent.local.backend.originAnswers()['https://always.example']?.answer, 'allow');
    prompt = () => Promise.resolve('block');
    const blocked = await connect('https://blocked.example');
    assert.equal(
      ((await blocked.request('printers.list')) as { code: string }).code,
      'ORIGIN_BLOCKED',
    );
    blocked.close();
    const again = await connect('https://blocked.example');
    await again.whenClosed();
    assert.equal((again.frames[0] as { code: string }).code, 'ORIGIN_BLOCKED');
    prompt = null;
  });
});
