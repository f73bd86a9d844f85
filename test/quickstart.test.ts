/**
 * docs/quickstart.md, command for command, from the repository's root as a reader runs it: the
 * root's `npm start` and `npx printwire-cloud admin bootstrap` must meet in one data directory
 * (`./.printwire`). The root is stood in for by a temporary folder holding the root's
 * package.json and a link to its node_modules, so a reader's own `.printwire` is never touched;
 * the network printer of step 7 is a FakePrinter on 127.0.0.1, a raw TCP printer as real ones are.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort, tempDir, waitUntil } from './e2e-support.js';
import { FakePrinter } from './fake-printer.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

describe('the quickstart, as written', () => {
  let dir: string;
  let server: ChildProcess | undefined;
  let url: string;
  let testKey: string;
  let liveKey: string;
  let activationCode: string;
  let agent: ChildProcess | undefined;
  let printer: FakePrinter | undefined;
  const env = (port: number) => {
    const e: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), LOG_LEVEL: 'info' };
    for (const name of ['DATA_DIR', 'DATABASE_URL', 'REDIS_URL', 'npm_config_prefix']) {
      delete e[name];
    }
    return e;
  };

  before(async () => {
    dir = tempDir('printwire-quickstart-');
    copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const port = await freePort();
    // 1. npm start
    server = spawn(NPM, ['start', '--silent'], {
      cwd: dir,
      env: env(port),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    let output = '';
    server.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: server!.stdout! }).on('line', (line) => {
        output += `${line}\n`;
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === 'listening' && entry.url) resolve(entry.url);
        } catch {
          // npm's own lines
        }
      });
      server!.once('exit', (code) => reject(new Error(`npm start exited with ${code}\n${output}`)));
    });
  });
  after(async () => {
    if (agent?.pid !== undefined && agent.exitCode === null) {
      const exited = new Promise((resolve) => agent!.once('exit', resolve));
      // npx and the agent it started: the whole process group (SIGTERM to npx alone left the
      // agent running after the test).
      process.kill(-agent.pid, 'SIGTERM');
      await exited;
    }
    await printer?.stop();
    if (server?.pid !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      // npm and the server it started: the whole process group.
      process.kill(-server.pid, 'SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('npm start keeps its data in ./.printwire of the folder it is run from', () => {
    assert.ok(existsSync(join(dir, '.printwire')), 'no .printwire where npm start was run');
  });

  test('2. admin bootstrap, run from the same folder, makes keys the running server knows', async () => {
    const { stdout } = await run(
      NPX,
      [
        'printwire-cloud',
        'admin',
        'bootstrap',
        '--email',
        'you@example.com',
        '--password',
        'a long password',
        '--org',
        'My shop',
        '--json',
      ],
      { cwd: dir, env: env(0) },
    );
    const keys = JSON.parse(stdout) as { testKey: string; liveKey: string; activationCode: string };
    assert.match(keys.testKey, /^pw_test_/);
    assert.match(keys.liveKey, /^pw_live_/);
    testKey = keys.testKey;
    liveKey = keys.liveKey;
    activationCode = keys.activationCode;
    const me = await fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${testKey}` } });
    assert.equal(me.status, 200, 'the server does not know the key the CLI made');
  });

  test('3 and 4. the sandbox receipt prints at once, once per Idempotency-Key, and its preview is a PNG', async () => {
    const headers = {
      authorization: `Bearer ${testKey}`,
      'content-type': 'application/json',
      'idempotency-key': 'order-1001',
    };
    const body = JSON.stringify({
      type: 'receipt',
      data: {
        blocks: [
          { type: 'text', value: 'Hello, Printwire', align: 'center', size: 2 },
          { type: 'pair', left: 'Coffee', right: '2.50' },
          { type: 'cut' },
        ],
      },
      metadata: { order: '1001' },
    });
    const first = await fetch(`${url}/v1/jobs`, { method: 'POST', headers, body });
    assert.equal(first.status, 201);
    const job = (await first.json()) as { id: string; state: string; events: { state: string }[] };
    assert.equal(job.state, 'printed');
    assert.deepEqual(
      job.events.map((e) => e.state),
      ['queued', 'sending', 'printed'],
    );
    const again = await fetch(`${url}/v1/jobs`, { method: 'POST', headers, body });
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as { id: string }).id, job.id);

    const preview = await fetch(`${url}/v1/jobs/${job.id}/preview`, {
      headers: { authorization: `Bearer ${testKey}` },
    });
    assert.equal(preview.status, 200);
    const png = Buffer.from(await preview.arrayBuffer());
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  });

  test('the paper-out sandbox printer fails the job with PAPER_OUT, and the sandbox lists its four printers', async () => {
    const failed = await fetch(`${url}/v1/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'text', data: 'hello', printer: { alias: 'paper-out' } }),
    });
    const job = (await failed.json()) as { state: string; errorCode: string };
    assert.equal(job.state, 'failed');
    assert.equal(job.errorCode, 'PAPER_OUT');
    const printers = await fetch(`${url}/v1/printers`, {
      headers: { authorization: `Bearer ${testKey}` },
    });
    const list = (await printers.json()) as { data: { alias: string }[] };
    assert.deepEqual(list.data.map((p) => p.alias).sort(), [
      'label',
      'paper-out',
      'receipt-58',
      'receipt-80',
    ]);
  });

  test('5. jobs are found again by metadata and by state, newest first', async () => {
    const get = async (query: string) => {
      const res = await fetch(`${url}/v1/jobs?${query}`, {
        headers: { authorization: `Bearer ${testKey}` },
      });
      assert.equal(res.status, 200);
      return (await res.json()) as { data: { state: string; metadata: Record<string, string> }[] };
    };
    const byOrder = await get('metadata.order=1001');
    assert.equal(byOrder.data.length, 1);
    assert.equal(byOrder.data[0]!.metadata.order, '1001');
    const failed = await get('state=failed&limit=10');
    assert.deepEqual(
      failed.data.map((j) => j.state),
      ['failed'],
    );
  });

  test('6. a receipt preview without printing answers the PNG itself', async () => {
    const res = await fetch(`${url}/v1/receipt/preview`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${testKey}`,
        'content-type': 'application/json',
        accept: 'image/png',
      },
      body: JSON.stringify({
        document: { blocks: [{ type: 'text', value: 'Draft' }] },
        paper: '58mm',
      }),
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await res.arrayBuffer());
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  });

  test('7. an agent activated with the code prints a live receipt on a network printer', async () => {
    printer = await FakePrinter.start();
    const agentLog: string[] = [];
    agent = spawn(
      NPX,
      [
        'printwire-agent',
        'start',
        '--cloud',
        url,
        '--activation-code',
        activationCode,
        '--printer',
        `${printer.uri()}?name=Counter`,
        // Not a step of the quickstart: the local-mode tests own the local server's ports.
        '--no-local-server',
      ],
      {
        cwd: dir,
        // The reader's agent keeps its data in the user's app data folder; this one in the test's.
        env: { ...env(0), PRINTWIRE_AGENT_DATA_DIR: join(dir, 'agent-data') },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
      },
    );
    agent.stdout!.on('data', (c: Buffer) => agentLog.push(c.toString()));
    agent.stderr!.on('data', (c: Buffer) => agentLog.push(c.toString()));
    const live = { authorization: `Bearer ${liveKey}` };

    const counter = await waitUntil(
      'the agent to report Counter online',
      async () => {
        if (agent!.exitCode !== null) throw new Error(`the agent exited:\n${agentLog.join('')}`);
        const res = await fetch(`${url}/v1/printers`, { headers: live });
        const list = (await res.json()) as { data: { id: string; name: string; status: string }[] };
        return list.data.find((p) => p.name === 'Counter' && p.status === 'online');
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    assert.ok(counter.id);

    const created = await fetch(`${url}/v1/jobs`, {
      method: 'POST',
      headers: { ...live, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'receipt',
        printer: 'Counter',
        data: {
          blocks: [
            { type: 'text', value: 'Hello, Printwire', align: 'center', size: 2 },
            { type: 'pair', left: 'Coffee', right: '2.50' },
            { type: 'cut' },
          ],
        },
      }),
    });
    assert.equal(created.status, 201);
    const job = (await created.json()) as { id: string; printerId: string };
    assert.equal(job.printerId, counter.id);

    const printed = await waitUntil(
      'the job to be printed',
      async () => {
        const res = await fetch(`${url}/v1/jobs/${job.id}`, { headers: live });
        const view = (await res.json()) as { state: string; errorCode?: string };
        if (view.state === 'failed') throw new Error(`the job failed: ${view.errorCode}`);
        return view.state === 'printed' ? view : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    assert.equal(printed.state, 'printed');
    const bytes = printer.bytes().toString('latin1');
    assert.ok(bytes.includes('Hello, Printwire'), 'the receipt text did not reach the printer');
    assert.ok(bytes.includes('Coffee'), 'the receipt text did not reach the printer');
    // The receipt ends with its cut (GS V): the printer received the last byte.
    assert.ok(/\x1dV[\s\S]{0,2}$/.test(bytes), 'the receipt did not end with its cut');
  });
});
