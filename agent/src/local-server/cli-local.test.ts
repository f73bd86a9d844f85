import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = new URL('../../bin/printwire-agent.mjs', import.meta.url).pathname;

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

describe('printwire-agent local mode commands', () => {
  test('local-ca makes the CA when missing and prints the path of its certificate', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-cli-'));
    const r = run('local-ca', '--data-dir', dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), join(dir, 'tls', 'ca.crt'));
    assert.ok(existsSync(r.stdout.trim()));
  });

  test('origins allow, block and forget keep one answer per origin, and refuse a non-origin', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-cli-'));
    const answers = (...args: string[]) =>
      (
        JSON.parse(run('origins', ...args, '--data-dir', dir, '--json').stdout) as Array<{
          origin: string;
          answer: string;
        }>
      ).map((o) => [o.origin, o.answer]);
    assert.deepEqual(answers('allow', 'https://Shop.example:443'), [
      ['https://shop.example', 'allow'],
    ]);
    assert.deepEqual(answers('block', 'http://evil.example:8080'), [
      ['https://shop.example', 'allow'],
      ['http://evil.example:8080', 'block'],
    ]);
    assert.deepEqual(answers('forget', 'https://shop.example'), [
      ['http://evil.example:8080', 'block'],
    ]);
    const bad = run('origins', 'allow', 'https://shop.example/path', '--data-dir', dir);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /ORIGIN must be scheme:\/\/host\[:port\]/);
  });

  test('--local-port out of range is a usage error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-cli-'));
    const r = run('start', '--data-dir', dir, '--local-port', '65536');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--local-port must be a port number \(1-65535\)/);
  });

  test('status --json names the running local server, window its window, and both stop with it', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-cli-'));
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [BIN, 'start', '--data-dir', dir, '--local-port', String(port)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    t.after(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('local server on')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`agent exited ${code}: ${out}`)));
    });
    const running = JSON.parse(run('status', '--data-dir', dir, '--json').stdout) as {
      localServer: unknown;
    };
    assert.deepEqual(running.localServer, { port, url: `https://localhost:${port}` });
    const info = (await (await fetch(`http://127.0.0.1:${port}/v1/info`)).json()) as {
      agentVersion: string;
    };
    assert.equal(info.agentVersion, '1.1.0');
    // `window`: the address with this start's key, which the window's API takes.
    const address = run('window', '--data-dir', dir).stdout.trim();
    assert.match(address, new RegExp(`^http://localhost:${port}/#key=[A-Za-z0-9_-]{40,}$`));
    const key = address.split('#key=')[1]!;
    const state = await fetch(`http://localhost:${port}/window/api/state`, {
      headers: { 'x-printwire-window-key': key },
    });
    assert.equal(state.status, 200);
    assert.equal(
      (
        await fetch(`http://localhost:${port}/window/api/state`, {
          headers: { 'x-printwire-window-key': 'x'.repeat(43) },
        })
      ).status,
      403,
    );
    child.kill('SIGTERM');
    await once(child, 'exit');
    const stopped = JSON.parse(run('status', '--data-dir', dir, '--json').stdout) as {
      localServer: unknown;
    };
    assert.equal(stopped.localServer, null);
    const gone = run('window', '--data-dir', dir);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /no running agent/);
  });
});
