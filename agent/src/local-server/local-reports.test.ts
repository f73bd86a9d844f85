import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentMessageOf } from '@printwire/shared/protocol/index';
import { FakeCloud } from '../../../test/fake-cloud.js';
import { FakePrinter } from '../../../test/fake-printer.js';
import { Agent } from '../agent.js';
import { saveConfig, emptyConfig, setPrinters, writeDeviceToken } from '../config/config-store.js';
import { silentLogger } from '../logs/logger.js';
import { LocalTestClient } from '../testing/local-client.js';
import { DEFAULT_LOCAL_SETTINGS, loadTemplates } from './local-store.js';
import type { LocalJob } from './protocol.js';

const PAGE = 'https://shop.example';
const TOKEN = 'dtok_local';
const LABEL = {
  id: 'tpl_shelf',
  name: 'Shelf ticket',
  type: 'receipt' as const,
  content: '{"blocks": [{"type": "text", "value": "{{name}} {{price}}"}, {"type": "cut"}]}',
  paper: null,
  updatedAt: '2026-11-20T10:00:00.000Z',
};

let cloud: FakeCloud;
let printer: FakePrinter;
let dataDir: string;
let agent: Agent;
let port: number;

async function online(): Promise<void> {
  if (agent.link!.state === 'online') return;
  await new Promise<void>((resolve) =>
    agent.link!.onStateChange((state) => state === 'online' && resolve()),
  );
}

async function printed(client: LocalTestClient, body: unknown): Promise<LocalJob> {
  const reply = await client.request('job.print', body);
  assert.equal(reply.type, 'reply', JSON.stringify(reply));
  const id = (reply as { result: LocalJob }).result.id;
  const frame = await client.next(
    (f) =>
      f.type === 'event' && f.event === 'job' && f.data.id === id && f.data.state === 'printed',
  );
  return (frame as { data: LocalJob }).data;
}

const reports = (jobId: string) =>
  cloud.received.filter(
    (m): m is AgentMessageOf<'job.local'> => m.type === 'job.local' && m.job.id === jobId,
  );

before(async () => {
  cloud = await FakeCloud.start();
  cloud.validTokens.add(TOKEN);
  cloud.config = {
    printers: [],
    templates: [LABEL],
    local: { ...DEFAULT_LOCAL_SETTINGS, allowedOrigins: [PAGE] },
  };
  printer = await FakePrinter.start();
  dataDir = mkdtempSync(join(tmpdir(), 'pw-local-reports-'));
  saveConfig(dataDir, { ...setPrinters(emptyConfig(), [printer.uri()]), cloudUrl: cloud.url });
  writeDeviceToken(dataDir, TOKEN);
  agent = await Agent.open({
    dataDir,
    logger: silentLogger(),
    durability: 'process',
    runner: { pollIntervalMs: 0, keepOpenMs: 0 },
    link: { reconnect: { baseMs: 20, capMs: 100 }, handshakeTimeoutMs: 300 },
    localServer: { port: 0 },
  });
  agent.start();
  port = (await agent.localServerReady)!;
  await online();
});

after(async () => {
  await agent.stop();
  await cloud.stop();
  await printer.stop();
});

describe('local jobs and the cloud', () => {
  test('the templates and settings of the config are kept in the data dir', () => {
    assert.deepEqual(loadTemplates(dataDir), [LABEL]);
    assert.deepEqual(agent.local.settings.allowedOrigins, [PAGE]);
  });

  test('a local job is reported whole to the cloud at each state, and the cloud confirms it', async () => {
    const client = await LocalTestClient.connect(`ws://127.0.0.1:${port}`, {
      origin: PAGE,
      host: `localhost:${port}`,
    });
    const job = await printed(client, { type: 'text', data: 'online job', idempotencyKey: 'k-1' });
    const last = await cloud.waitFor(
      'job.local',
      (m) => m.job.id === job.id && m.job.state === 'printed',
      {
        past: true,
      },
    );
    assert.equal(last.job.idempotencyKey, 'k-1');
    assert.equal(last.job.attempt, 1);
    assert.ok(last.job.printedAt);
    assert.deepEqual(
      last.job.events.map((e) => e.state),
      ['queued', 'sending', 'printed'],
    );
    assert.deepEqual(
      reports(job.id).map((m) => m.job.state),
      ['queued', 'sending', 'printed'],
    );
    // The ack went out before the cloud emitted the report; the agent reads it next.
    const deadline = Date.now() + 5000;
    while (agent.queue.pendingReport(job.id) !== null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
    }
    assert.equal(agent.queue.pendingReport(job.id), null);
    client.close();
  });

  test('with the cloud unreachable a template job prints from the stored template and is reported once the link is back', async () => {
    cloud.answerHello = false;
    cloud.dropConnections();
    await new Promise<void>((resolve) =>
      agent.link!.onStateChange((state) => state !== 'online' && resolve()),
    );
    const client = await LocalTestClient.connect(`ws://127.0.0.1:${port}`, {
      origin: PAGE,
      host: `localhost:${port}`,
    });
    const info = (await client.next((f) => f.type === 'welcome')) as { info: { cloud: string } };
    assert.equal(info.info.cloud, 'offline');
    printer.clear();
    const job = await printed(client, {
      templateId: LABEL.id,
      data: { name: 'Rice 1kg', price: '2.50' },
    });
    assert.equal(job.templateId, LABEL.id);
    assert.equal(job.type, 'receipt');
    assert.ok(printer.bytes().toString('latin1').includes('Rice 1kg 2.50'));
    assert.equal(reports(job.id).length, 0);
    assert.ok(agent.queue.pendingReport(job.id));
    cloud.answerHello = true;
    const report = await cloud.waitFor('job.local', (m) => m.job.id === job.id);
    assert.equal(report.job.state, 'printed');
    assert.equal(report.job.templateId, LABEL.id);
    await online();
    client.close();
  });

  test('a template job with data the template cannot render, or an unknown template, is INVALID_JOB', async () => {
    const client = await LocalTestClient.connect(`ws://127.0.0.1:${port}`, {
      origin: PAGE,
      host: `localhost:${port}`,
    });
    const unknown = await client.request('job.print', { templateId: 'tpl_nope', data: {} });
    assert.equal((unknown as { code: string }).code, 'INVALID_JOB');
    assert.match((unknown as { message: string }).message, /templateId: no template tpl_nope/);
    const withType = await client.request('job.print', {
      templateId: LABEL.id,
      type: 'receipt',
      data: {},
    });
    assert.match(
      (withType as { message: string }).message,
      /type: omit type when templateId is set/,
    );
    client.close();
  });

  test('a template removed from the config is removed from the data dir', async () => {
    cloud.send({ type: 'config', config: { printers: [], templates: [] } });
    const deadline = Date.now() + 5000;
    while (loadTemplates(dataDir).length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
    }
    assert.deepEqual(loadTemplates(dataDir), []);
  });
});
