import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PrinterInfo } from '@printwire/shared/protocol/index';
import { startHarness, type Harness } from '../testing/harness.js';
import { startReceiver, type Receiver } from '../testing/webhook-receiver.js';

const INVENTORY_EVENTS = [
  'device.online',
  'device.offline',
  'printer.online',
  'printer.offline',
  'printer.paper_out',
];

describe('device and printer events go to the endpoints of their mode', () => {
  let h: Harness;
  let live: Receiver;
  let sandbox: Receiver;
  before(async () => {
    h = await startHarness();
    live = await startReceiver();
    sandbox = await startReceiver();
    await h.cloud.webhooks.start();
  });
  after(async () => {
    await h.cloud.webhooks.stop();
    await live.close();
    await sandbox.close();
    await h.close();
  });

  const settle = async () => {
    await h.cloud.webhooks.settled();
    await h.cloud.webhooks.worker.drain();
  };

  /** What arrived, sorted: up to four attempts per endpoint run at once. */
  const types = (r: Receiver) => r.received.map((x) => x.body.type).sort();
  const body = (r: Receiver, type: string) => r.received.find((x) => x.body.type === type)!.body;

  test('a real agent’s device and printers are live; the sandbox’s virtual printers are test', async () => {
    const org = await h.org('business');
    for (const [key, receiver] of [
      [org.liveKey, live],
      [org.testKey, sandbox],
    ] as const) {
      const created = await h.call('POST', '/v1/webhooks', {
        key,
        body: { url: receiver.url, events: INVENTORY_EVENTS },
      });
      assert.equal(created.status, 201);
    }

    const device = await h.store.inventory.createDevice(
      org.orgId,
      { name: 'Till', os: 'linux', arch: 'arm64', agentVersion: '1.0.0' },
      h.clock.now(),
    );
    const printer: PrinterInfo = {
      agentPrinterId: 'usb-1',
      name: 'Epson TM-T20',
      alias: null,
      uri: 'usb://04b8:0e15',
      connection: 'usb',
      kind: 'receipt',
      language: 'escpos',
      paper: '80mm',
      codepage: null,
      capabilities: [],
      status: 'online',
      isDefault: true,
    };
    await h.cloud.devices.connected(device, {
      os: 'linux',
      arch: 'arm64',
      agentVersion: '1.0.0',
      printers: [printer],
    });
    await settle();
    assert.deepEqual(types(live), ['device.online', 'printer.online']);
    assert.deepEqual(types(sandbox), [], 'a test endpoint hears nothing of a real device');
    const read = await h.call('GET', `/v1/devices/${device.id}`, { key: org.liveKey });
    assert.deepEqual(body(live, 'device.online').data.device, read.body);

    const [virtual] = await h.store.inventory.findPrinters(
      org.orgId,
      { includeSandbox: true },
      { alias: 'receipt-80' },
    );
    assert.ok(
      await h.cloud.devices.printerStatus(
        org.orgId,
        virtual!.deviceId,
        virtual!.agentPrinterId,
        'paper_out',
      ),
    );
    await settle();
    assert.deepEqual(types(sandbox), ['printer.paper_out']);
    assert.equal(live.received.length, 2, 'a live endpoint hears nothing of the sandbox');
    const shown = await h.call('GET', `/v1/printers/${virtual!.id}`, { key: org.testKey });
    assert.deepEqual(body(sandbox, 'printer.paper_out').data.printer, shown.body);

    await h.cloud.devices.disconnected(org.orgId, device.id);
    await settle();
    assert.deepEqual(types(live), [
      'device.offline',
      'device.online',
      'printer.offline',
      'printer.online',
    ]);
    assert.equal(sandbox.received.length, 1);
  });
});
