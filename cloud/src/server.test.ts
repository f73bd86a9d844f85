import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { defaultConfig } from './config.js';
import { startServer, startupLine } from './server.js';
import { bootstrap } from './services/bootstrap.js';

test('shutting down lets a request in flight finish, then refuses new connections', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'printwire-serve-'));
  const running = await startServer(
    defaultConfig({ port: 0, dataDir: dir }),
    pino({ level: 'silent' }),
  );
  try {
    const org = await bootstrap(
      running.store,
      { email: 'o@example.com', password: 'long enough pw', org: 'Shop' },
      Date.now(),
    );
    const body = JSON.stringify({ type: 'text', data: 'in flight' });
    const { port } = new URL(running.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
    });
    socket.write(
      `POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${org.testKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
    );
    // Let the server start reading the request before shutting down.
    await new Promise((resolve) => setImmediate(resolve));
    const closed = running.close(5_000);
    socket.write(body.slice(5));
    const response = await answer;
    assert.match(response, /^HTTP\/1\.1 201 /);
    await closed;
    await assert.rejects(fetch(`${running.url}/health/live`));
  } finally {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the start-up line names PUBLIC_URL, PostgreSQL and the SMTP server without their passwords', () => {
  const config = defaultConfig({
    host: '0.0.0.0',
    port: 8080,
    publicUrl: 'https://print.example.com',
    databaseUrl: 'postgres://printwire:s3cret@db.internal:5432/printwire',
  });
  const line = startupLine(
    config,
    'http://0.0.0.0:8080',
    'smtp://mailer:hunter22@smtp.example.com:587',
  );
  assert.equal(
    line,
    'Printwire is running: open https://print.example.com · database: PostgreSQL postgres://printwire:***@db.internal:5432/printwire · e-mails go through smtp://mailer:***@smtp.example.com:587',
  );
  const local = defaultConfig({ host: '0.0.0.0', port: 8080, dataDir: '/srv/pw' });
  assert.match(
    startupLine(local, 'http://0.0.0.0:8080', undefined),
    /^Printwire is running: open http:\/\/localhost:8080 · database: SQLite \/srv\/pw\/printwire\.db · no SMTP_URL: .* to \/srv\/pw\/mail$/,
  );
});
