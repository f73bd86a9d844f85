import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeCloud } from '../../test/fake-cloud.js';
import { Agent, defaultRegistry } from './agent.js';
import type { DiscoverySources } from './discovery/discover.js';
import { silentLogger } from './logs/logger.js';
import type { Spooler, SpoolerQueue } from './transports/system/spooler.js';
import {
  printerClassInterface,
  RecordingUsbBackend,
  RecordingUsbDevice,
} from './transports/usb/recording-usb-device.js';
import { usbTransportFactory } from './transports/usb/usb-transport.js';

function queuesSpooler(queues: SpoolerQueue[]): Spooler {
  return {
    listQueues: async () => queues,
    queueStatus: async () => null,
    submit: async () => '1',
    jobState: async () => 'completed',
    cancel: async () => undefined,
  };
}

describe('printers the agent discovers', () => {
  let dataDir: string;
  let usb: RecordingUsbDevice;
  let sources: DiscoverySources;
  let agent: Agent | null = null;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'pw-discovered-'));
    usb = new RecordingUsbDevice({
      vendorId: 0x04b8,
      productId: 0x0202,
      interfaces: [printerClassInterface()],
      serial: 'TM9',
      manufacturer: 'EPSON',
      product: 'TM-T20III',
      answersStatus: true,
    });
    sources = {
      usb: new RecordingUsbBackend([usb]),
      serialPorts: async () => [{ path: '/dev/ttyUSB7', manufacturer: null }],
      spooler: queuesSpooler([
        { name: 'counter', description: null, isDefault: false, device: 'usb://Star/TSP143' },
        { name: 'laser', description: 'Office laser', isDefault: true, device: 'ipp://laser' },
      ]),
    };
  });

  afterEach(async () => {
    await agent?.stop();
    agent = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  const open = async (extra: Partial<Parameters<typeof Agent.open>[0]> = {}) => {
    agent = await Agent.open({
      dataDir,
      logger: silentLogger(),
      discovery: sources,
      registry: defaultRegistry().register('usb', usbTransportFactory(sources.usb!)),
      runner: { pollIntervalMs: 0 },
      ...extra,
    });
    return agent;
  };

  test('without configured printers the USB printers and system queues found are used, with ids kept across restarts', async () => {
    const first = await open();
    const seen = first.printerInfo().map((p) => [p.connection, p.kind, p.name]);
    assert.deepEqual(seen, [
      ['usb', 'receipt', 'EPSON TM-T20III'],
      ['system', 'receipt', 'counter'],
      ['system', 'office', 'Office laser'],
    ]);
    const ids = first.printers.map((p) => p.agentPrinterId);
    assert.equal(new Set(ids).size, 3);
    await first.stop();
    agent = null;

    // The laser is switched off: the others keep their ids.
    sources.spooler = queuesSpooler([
      { name: 'counter', description: null, isDefault: false, device: 'usb://Star/TSP143' },
    ]);
    const second = await open();
    assert.deepEqual(
      second.printers.map((p) => p.agentPrinterId),
      ids.slice(0, 2),
    );
  });

  test('a discovered USB printer prints the jobs the cloud sends it', async () => {
    const cloud = await FakeCloud.start();
    try {
      cloud.activationCodes.set('code_d', { deviceId: 'dev_d', deviceToken: 'pwd_token_d' });
      const a = await open({ cloudUrl: cloud.url, activationCode: 'code_d' });
      const hello = cloud.waitFor('hello');
      a.start();
      const usbId = (await hello).printers.find((p) => p.connection === 'usb')!.agentPrinterId;
      const result = cloud.waitFor('job.result');
      cloud.dispatch({
        id: 'job_d1',
        attempt: 1,
        maxAttempts: 1,
        agentPrinterId: usbId,
        type: 'text',
        encoding: 'utf8',
        content: 'found by itself',
        options: { cut: 'none' },
        expiresAt: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      assert.equal((await result).outcome, 'printed');
      assert.match(Buffer.concat(usb.transfers).toString('latin1'), /found by itself\n/);
    } finally {
      await agent?.stop();
      agent = null;
      await cloud.stop();
    }
  });

  test('configured printers take their kind from discovery, and nothing else is added', async () => {
    const a = await open({ printers: ['system:counter', 'system:laser'] });
    assert.deepEqual(
      a.printerInfo().map((p) => [p.uri, p.kind, p.capabilities.includes('receipt')]),
      [
        ['system:counter', 'receipt', true],
        ['system:laser', 'office', false],
      ],
    );
  });

  test('without discovery a system queue is classified by its name', async () => {
    const a = await open({ discovery: undefined, printers: ['system:counter'] });
    assert.equal(a.printerInfo()[0]!.kind, 'office');
  });
});
