import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeCloud } from '../../test/fake-cloud.js';
import { Agent, defaultRegistry } from './agent.js';
import { loadConfig, saveConfig, setPrinterHidden } from './config/config-store.js';
import { FakeClock } from './core/clock.js';
import { USB_SETTLE_MS } from './discovery/discovery-loop.js';
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

  /** The spooler's queues as a list the test changes (a fresh spooler over it). */
  const spoolerQueues = async () => {
    const queues = await sources.spooler!.listQueues();
    sources.spooler = queuesSpooler(queues);
    return queues;
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  const until = async (done: () => boolean) => {
    for (let i = 0; i < 200 && !done(); i++) await settle();
    assert.ok(done());
  };

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
    // How each is reached: the USB ids and serial, the queue's name behind its description.
    assert.deepEqual(
      first.printerInfo().map((p) => p.reach),
      [
        { via: 'usb', vendorId: '04b8', productId: '0202', serial: 'TM9' },
        { via: 'system', queue: 'counter' },
        { via: 'system', queue: 'laser' },
      ],
    );
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

  test('configured printers take their kind from discovery, and the printers found are reported beside them', async () => {
    const a = await open({ printers: ['system:counter', 'system:laser'] });
    assert.deepEqual(
      a.printerInfo().map((p) => [p.uri, p.kind, p.capabilities.includes('receipt'), p.isDefault]),
      [
        ['system:counter', 'receipt', true, true],
        ['system:laser', 'office', false, false],
        ['usb://04b8:0202/TM9?name=EPSON+TM-T20III', 'receipt', true, false],
      ],
    );
  });

  test('printers found while running are reported, those no longer found go offline, hidden ones are not reported', async () => {
    const cloud = await FakeCloud.start();
    try {
      cloud.activationCodes.set('code_r', { deviceId: 'dev_r', deviceToken: 'pwd_token_r' });
      const queues = await spoolerQueues();
      const a = await open({
        cloudUrl: cloud.url,
        activationCode: 'code_r',
        discoveryIntervalMs: 0,
      });
      const hello = cloud.waitFor('hello');
      a.start();
      assert.deepEqual(
        (await hello).printers.map((p) => p.name),
        ['EPSON TM-T20III', 'counter', 'Office laser'],
      );
      const laserId = a.printers[2]!.agentPrinterId;

      queues.push({ name: 'Zebra_labels', description: null, isDefault: false, device: null });
      let inventory = cloud.waitFor('printers');
      await a.refreshPrinters();
      const added = (await inventory).printers.find((p) => p.name === 'Zebra_labels');
      assert.equal(added?.kind, 'label');
      assert.deepEqual(added?.capabilities, ['zpl', 'raw', 'status']);
      assert.ok(
        a.printers.some((p) => p.agentPrinterId === added.agentPrinterId),
        'in use',
      );

      queues.splice(1, 1); // the laser is switched off
      inventory = cloud.waitFor('printers');
      await a.refreshPrinters();
      const gone = (await inventory).printers.find((p) => p.agentPrinterId === laserId);
      assert.equal(gone?.status, 'offline', 'reported offline, not dropped');
      assert.equal(gone?.kind, 'office');
      assert.ok(!a.printers.some((p) => p.agentPrinterId === laserId), 'no longer in use');

      saveConfig(dataDir, setPrinterHidden(loadConfig(dataDir), added.agentPrinterId, true));
      inventory = cloud.waitFor('printers');
      await a.refreshPrinters();
      const afterHide = await inventory;
      assert.ok(!afterHide.printers.some((p) => p.agentPrinterId === added.agentPrinterId));
      assert.deepEqual(afterHide.hidden, [added.agentPrinterId]);

      // Nothing changed: nothing is sent (a heartbeat sent after the pass arrives after
      // anything the pass sent, on the same socket).
      await a.refreshPrinters();
      const marker = cloud.waitFor('heartbeat');
      a.link!.send({
        type: 'heartbeat',
        sentAt: new Date().toISOString(),
        queue: { queued: 0, printing: 0 },
      });
      await marker;
      assert.equal(cloud.received.filter((m) => m.type === 'printers').length, 3);
      await a.stop();
      agent = null;

      // After a restart the ids are the same and the hidden printer stays hidden.
      const again = await open({ cloudUrl: cloud.url, discoveryIntervalMs: 0 });
      assert.deepEqual(
        again.printerInfo().map((p) => p.name),
        ['EPSON TM-T20III', 'counter'],
      );
      assert.equal(again.config.printerIds['system:Zebra_labels'], added.agentPrinterId);
    } finally {
      await agent?.stop();
      agent = null;
      await cloud.stop();
    }
  });

  test('a USB printer that cannot be opened while busy is not taken for a new printer', async () => {
    const a = await open({ discoveryIntervalMs: 0 });
    const before = a.printers.map((p) => p.agentPrinterId);
    usb.busy = true;
    await a.refreshPrinters();
    assert.deepEqual(
      a.printers.map((p) => p.agentPrinterId),
      before,
    );
    assert.equal(a.printerInfo().length, 3, 'nothing reported gone');
    usb.busy = false;
    usb.unplugged = true;
    await a.refreshPrinters();
    assert.equal(a.printerInfo().find((p) => p.connection === 'usb')?.status, 'offline');
  });

  test('discovery runs again at its interval and soon after a USB attach or detach', async () => {
    const clock = new FakeClock();
    const queues = await spoolerQueues();
    const a = await open({ clock, discoveryIntervalMs: 30_000 });
    a.start();
    queues.push({ name: 'Kitchen', description: 'POS-80', isDefault: false, device: null });
    clock.advance(29_999);
    await settle();
    assert.equal(a.printers.length, 3);
    clock.advance(1);
    await until(() => a.printers.length === 4);

    usb.unplugged = true;
    (sources.usb as RecordingUsbBackend).hotplug();
    clock.advance(USB_SETTLE_MS);
    await until(() => a.printers.length === 3);
    assert.equal(a.printerInfo().find((p) => p.connection === 'usb')?.status, 'offline');
  });

  test('without discovery a system queue is classified by its name', async () => {
    const a = await open({ discovery: undefined, printers: ['system:counter'] });
    assert.equal(a.printerInfo()[0]!.kind, 'office');
  });
});
