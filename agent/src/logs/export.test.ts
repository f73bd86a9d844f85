import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, saveConfig, setPrinters, writeDeviceToken } from '../config/config-store.js';
import { JobQueue } from '../queue/job-queue.js';
import { exportLogs, redactObject } from './export.js';

const TOKEN = 'pwd_4f9c2a7e1b3d5f6a8c0e2b4d6f8a0c1e';

/** Every entry of the zip, unpacked with Info-ZIP's unzip. */
function unzipAll(file: string): Map<string, string> {
  const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n');
  return new Map(
    names.map((n) => [n, execFileSync('unzip', ['-p', file, n], { encoding: 'utf8' })]),
  );
}

describe('logs export', () => {
  test('the bundle holds logs, redacted config, queue summary and system facts, and no secret', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pw-export-'));
    saveConfig(dataDir, {
      ...setPrinters(loadConfig(dataDir), ['tcp://10.0.0.5']),
      deviceId: 'dev_1',
    });
    writeDeviceToken(dataDir, TOKEN);
    mkdirSync(join(dataDir, 'logs'));
    writeFileSync(
      join(dataDir, 'logs', 'agent.1.log'),
      `{"msg":"connecting","authorization":"Bearer ${TOKEN}"}\n{"msg":"key pw_live_abc123def456"}\n`,
    );
    const queue = new JobQueue(join(dataDir, 'queue.db'));
    queue.accept({
      id: 'job_1',
      attempt: 1,
      maxAttempts: 3,
      agentPrinterId: 'prn_1',
      type: 'text',
      encoding: 'utf8',
      content: 'secret receipt content',
      options: {},
      expiresAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    queue.close();
    const out = join(dataDir, 'support.zip');
    await exportLogs({ dataDir, out, agentVersion: '0.1.0' });

    const entries = unzipAll(out);
    assert.deepEqual([...entries.keys()].sort(), [
      'config.json',
      'logs/agent.1.log',
      'queue-summary.json',
      'system.json',
    ]);
    for (const [name, text] of entries) {
      assert.equal(text.includes(TOKEN), false, `${name} holds the device token`);
      assert.equal(text.includes('pw_live_abc123def456'), false, `${name} holds an API key`);
      assert.equal(text.includes('secret receipt content'), false, `${name} holds job content`);
    }
    const config = JSON.parse(entries.get('config.json')!) as Record<string, unknown>;
    assert.equal(config.deviceToken, '[REDACTED]');
    assert.equal(config.deviceId, 'dev_1');
    assert.equal((JSON.parse(entries.get('queue-summary.json')!) as { queued: number }).queued, 1);
    assert.equal(
      (JSON.parse(entries.get('system.json')!) as { agentVersion: string }).agentVersion,
      '0.1.0',
    );
    assert.match(entries.get('logs/agent.1.log')!, /connecting.*\[REDACTED\]/);
  });

  test('no device token, API key, signing secret or password seeded in config, logs and queue reaches the zip', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pw-export-leak-'));
    const secrets = {
      deviceToken: 'pwd_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo',
      oldDeviceToken: 'pwd_b2xkLXRva2VuLWZyb20tYmVmb3JlLXJvdGF0aW9u',
      liveKey: 'pw_live_8fK2mQx9LzR4tVw7',
      testKey: 'pw_test_3nB6cJ1yHs5dPq0e',
      signingSecret: 'whsec_Q2hhbmdlIG1lIHBsZWFzZSBzb29u',
      cloudPassword: 'cl0ud-Pa55word',
      logPassword: 'hunter2-in-a-log',
      queryPassword: 's3cr3t-in-a-query',
      activationCode: 'ACT-7H3K-9QWE',
      privateKey: 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
    };
    saveConfig(dataDir, {
      ...setPrinters(loadConfig(dataDir), ['tcp://10.0.0.5?name=Bar']),
      deviceId: 'dev_leak',
      cloudUrl: `https://admin:${secrets.cloudPassword}@cloud.example`,
    });
    writeDeviceToken(dataDir, secrets.deviceToken);
    mkdirSync(join(dataDir, 'logs'));
    const lines = [
      { msg: 'connecting', authorization: `Bearer ${secrets.deviceToken}` },
      { msg: `rotated from ${secrets.oldDeviceToken}` },
      { msg: 'request', headers: { 'x-api-key': secrets.liveKey }, apiKey: secrets.testKey },
      { msg: `webhook signed with ${secrets.signingSecret}` },
      { msg: 'sign in', user: { email: 'a@b.example', password: secrets.logPassword } },
      { msg: `GET /x?token=abc&password=${secrets.queryPassword}` },
      { msg: 'activating', activationCode: secrets.activationCode },
      {
        msg: 'tls',
        err: `-----BEGIN RSA PRIVATE KEY-----\n${secrets.privateKey}\n-----END RSA PRIVATE KEY-----`,
      },
    ];
    writeFileSync(
      join(dataDir, 'logs', 'agent.1.log'),
      lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    );
    writeFileSync(
      join(dataDir, 'logs', 'launchd.err.log'),
      `plain text: api_key=${secrets.liveKey} password: ${secrets.logPassword} ${secrets.signingSecret}\n`,
    );
    const queue = new JobQueue(join(dataDir, 'queue.db'));
    queue.accept({
      id: 'job_leak',
      attempt: 1,
      maxAttempts: 3,
      agentPrinterId: 'prn_1',
      type: 'text',
      encoding: 'utf8',
      content: Object.values(secrets).join(' '),
      options: {},
      expiresAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    queue.close();

    const out = join(dataDir, 'support.zip');
    await exportLogs({ dataDir, out, agentVersion: '1.1.0' });
    const entries = unzipAll(out);
    assert.deepEqual([...entries.keys()].sort(), [
      'config.json',
      'logs/agent.1.log',
      'logs/launchd.err.log',
      'queue-summary.json',
      'system.json',
    ]);
    const all = [...entries.values()].join('\n');
    for (const [name, secret] of Object.entries(secrets)) {
      assert.equal(all.includes(secret), false, `${name} is in the zip`);
    }
    // What support needs is still there.
    const config = JSON.parse(entries.get('config.json')!) as Record<string, unknown>;
    assert.equal(config.deviceId, 'dev_leak');
    assert.equal(config.cloudUrl, 'https://[REDACTED]@cloud.example');
    assert.match(
      entries.get('logs/agent.1.log')!,
      /"msg":"sign in","user":\{"email":"a@b\.example","password":"\[REDACTED\]"\}/,
    );
    assert.match(entries.get('logs/agent.1.log')!, /token=\[REDACTED\]&password=\[REDACTED\]/);
    assert.equal((JSON.parse(entries.get('queue-summary.json')!) as { queued: number }).queued, 1);
  });

  test('values under secret-looking keys are redacted at any depth', () => {
    assert.deepEqual(
      redactObject({ a: { apiKey: 'x', token: 'y', name: 'n' }, list: [{ password: 'p' }] }),
      {
        a: { apiKey: '[REDACTED]', token: '[REDACTED]', name: 'n' },
        list: [{ password: '[REDACTED]' }],
      },
    );
  });
});
