import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { FakeCloud } from '../../../test/fake-cloud.js';
import { FakePrinter } from '../../../test/fake-printer.js';
import { Agent } from '../agent.js';
import { saveConfig, emptyConfig, setPrinters, writeDeviceToken } from '../config/config-store.js';
import { silentLogger } from '../logs/logger.js';
import { LocalTestClient } from '../testing/local-client.js';
import { DEFAULT_LOCAL_SETTINGS } from './local-store.js';
import type { LocalJob } from './protocol.js';

const PAGE = 'https://shop.example';
const TOKEN = 'dtok_downloads';

let cloud: FakeCloud;
let printer: FakePrinter;
let agent: Agent;
let port: number;
/** A server of the shop's network (on the loopback), counting the requests it gets. */
let lan: Server;
let lanUrl: string;
let lanRequests = 0;

async function finished(client: LocalTestClient, body: unknown): Promise<LocalJob> {
  const reply = await client.request('job.print', body);
  assert.equal(reply.type, 'reply', JSON.stringify(reply));
  const id = (reply as { result: LocalJob }).result.id;
  const frame = await client.next(
    (f) =>
      f.type === 'event' &&
      f.event === 'job' &&
      f.data.id === id &&
      (f.data.state === 'printed' || f.data.state === 'failed'),
  );
  return (frame as { data: LocalJob }).data;
}

async function pageClient(): Promise<LocalTestClient> {
  return LocalTestClient.connect(`ws://127.0.0.1:${port}`, {
    origin: PAGE,
    host: `localhost:${port}`,
  });
}

before(async () => {
  const png = await sharp({
    create: { width: 16, height: 16, channels: 3, background: { r: 0, g: 0, b: 0 } },
  })
    .png()
    .toBuffer();
  lan = createServer((_req, res) => {
    lanRequests++;
    res.setHeader('content-type', 'image/png');
    res.end(png);
  });
  await new Promise<void>((resolve) => lan.listen(0, '127.0.0.1', resolve));
  lanUrl = `http://127.0.0.1:${(lan.address() as AddressInfo).port}/ticket.png`;
  cloud = await FakeCloud.start();
  cloud.validTokens.add(TOKEN);
  cloud.config = {
    printers: [],
    templates: [],
    local: { ...DEFAULT_LOCAL_SETTINGS, allowedOrigins: [PAGE] },
  };
  printer = await FakePrinter.start();
  const dataDir = mkdtempSync(join(tmpdir(), 'pw-local-downloads-'));
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
  if (agent.link!.state !== 'online') {
    await new Promise<void>((resolve) =>
      agent.link!.onStateChange((state) => state === 'online' && resolve()),
    );
  }
});

after(async () => {
  await agent.stop();
  await cloud.stop();
  await printer.stop();
  await new Promise<void>((resolve) => lan.close(() => resolve()));
});

describe("local jobs and the shop's network", () => {
  test('a local job whose URL is a loopback address fails with DOWNLOAD_FAILED naming the rule, and the address is never asked', async () => {
    const client = await pageClient();
    for (const data of [
      lanUrl,
      lanUrl.replace('127.0.0.1', '[::ffff:127.0.0.1]'),
      lanUrl.replace('127.0.0.1', 'localhost'),
    ]) {
      const job = await finished(client, { type: 'image', encoding: 'url', data });
      assert.equal(job.state, 'failed', data);
      assert.equal(job.errorCode, 'DOWNLOAD_FAILED');
      assert.match(job.errorMessage ?? '', /localDownloadsToPrivateNetwork/);
      assert.doesNotMatch(job.errorMessage ?? '', /ECONNREFUSED|answered/);
    }
    assert.equal(lanRequests, 0);
    client.close();
  });

  test('a receipt image on the shop network is refused the same way', async () => {
    const client = await pageClient();
    const job = await finished(client, {
      type: 'receipt',
      data: { blocks: [{ type: 'image', src: lanUrl.replace('ticket.png', 'logo.png') }] },
    });
    assert.equal(job.state, 'failed');
    assert.equal(job.errorCode, 'DOWNLOAD_FAILED');
    assert.match(job.errorMessage ?? '', /localDownloadsToPrivateNetwork/);
    assert.equal(lanRequests, 0);
    client.close();
  });

  test('with the organization allowing it, the same local job downloads and prints', async () => {
    const next = {
      ...cloud.config,
      local: { ...cloud.config.local!, localDownloadsToPrivateNetwork: true },
    };
    cloud.config = next;
    cloud.send({ type: 'config', config: next });
    const deadline = Date.now() + 5000;
    while (!agent.local.settings.localDownloadsToPrivateNetwork && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(agent.local.settings.localDownloadsToPrivateNetwork, true);
    printer.clear();
    const client = await pageClient();
    const job = await finished(client, { type: 'image', encoding: 'url', data: lanUrl });
    assert.equal(job.state, 'printed', JSON.stringify(job));
    assert.equal(lanRequests, 1);
    assert.ok(printer.bytes().length > (16 * 16) / 8, 'the image reached the printer');
    client.close();
  });
});
