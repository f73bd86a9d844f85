import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const bin = new URL('../bin/printwire-cloud.mjs', import.meta.url).pathname;
const run = promisify(execFile);

test('bootstrap prints working keys, set-plan changes the plan, and serve stops cleanly on SIGTERM', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'printwire-cli-'));
  const env = {
    ...process.env,
    DATA_DIR: dir,
    LOG_LEVEL: 'info',
    PORT: '0',
    DATABASE_URL: '',
    REDIS_URL: '',
  };
  try {
    const migrated = await run(process.execPath, [bin, 'migrate'], { env });
    assert.match(migrated.stdout, /applied 0001_initial/);
    const { stdout } = await run(
      process.execPath,
      [
        bin,
        'admin',
        'bootstrap',
        '--email',
        'owner@example.com',
        '--password',
        'long enough pw',
        '--org',
        'Café',
        '--json',
      ],
      { env },
    );
    const result = JSON.parse(stdout);
    assert.deepEqual(Object.keys(result).sort(), [
      'activationCode',
      'liveKey',
      'orgId',
      'testKey',
      'userId',
    ]);
    assert.match(result.liveKey, /^pw_live_/);
    assert.match(result.testKey, /^pw_test_/);
    const setPlan = await run(
      process.execPath,
      [bin, 'admin', 'set-plan', result.orgId, 'business'],
      { env },
    );
    assert.match(setPlan.stdout, /business/);
    await assert.rejects(
      run(process.execPath, [bin, 'admin', 'set-plan', result.orgId, 'platinum'], { env }),
    );

    const server = spawn(process.execPath, [bin, 'serve'], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: server.stdout! });
    const url = await new Promise<string>((resolve, reject) => {
      lines.on('line', (line) => {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'listening' && entry.url) resolve(entry.url);
      });
      server.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    const me = await fetch(`${url}/v1/me`, {
      headers: { authorization: `Bearer ${result.liveKey}` },
    });
    assert.equal(me.status, 200);
    const body = (await me.json()) as { plan: { name: string }; organization: { name: string } };
    assert.equal(body.plan.name, 'business');
    assert.equal(body.organization.name, 'Café');
    assert.equal((await fetch(`${url}/health/ready`)).status, 200);
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    assert.equal(await exited, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('serve refuses a setting out of its rule with one line naming it, before opening anything', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'printwire-cli-'));
  const env = {
    ...process.env,
    DATA_DIR: dir,
    PORT: '0',
    DATABASE_URL: '',
    REDIS_URL: '',
    AGENT_HEARTBEAT_INTERVAL_MS: '50',
  };
  try {
    const failed = await run(process.execPath, [bin, 'serve'], { env }).then(
      () => assert.fail('serve started with a bad setting'),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(failed.code, 1);
    assert.equal(
      failed.stderr.trim(),
      'printwire-cloud: AGENT_HEARTBEAT_INTERVAL_MS must be a whole number of milliseconds from 1000 to 300000, not 50',
    );
    assert.ok(!existsSync(join(dir, 'printwire.db')), 'no database was created');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('serve tells the person at the terminal, in one line, the address to open, the database and where the mails go', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'printwire-cli-'));
  const env = {
    ...process.env,
    DATA_DIR: dir,
    PORT: '0',
    DATABASE_URL: '',
    REDIS_URL: '',
    SMTP_URL: '',
  };
  try {
    const server = spawn(process.execPath, [bin, 'serve'], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    const lines = createInterface({ input: server.stderr! });
    const line = await new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      server.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    const address = /open (http:\/\/127\.0\.0\.1:\d+) /.exec(line)?.[1];
    assert.ok(address, `no address to open in: ${line}`);
    assert.equal((await fetch(`${address}/health/live`)).status, 200);
    assert.ok(line.includes(`database: SQLite ${join(dir, 'printwire.db')}`), line);
    assert.ok(line.includes(`.eml files to ${join(dir, 'mail')}`), line);
    server.kill('SIGTERM');
    assert.equal(await exited, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
