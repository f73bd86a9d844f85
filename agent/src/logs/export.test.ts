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
