import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cupsQueueForTests, type CupsTestQueue } from '../../../test/cups.js';
import { parsePrinterUri } from '../config/printer-uri.js';
import { CupsSpooler } from '../transports/system/cups-spooler.js';
import type { Spooler, SpoolerQueue } from '../transports/system/spooler.js';
import {
  printerClassInterface,
  RecordingUsbBackend,
  RecordingUsbDevice,
} from '../transports/usb/recording-usb-device.js';
import { classifyQueue } from './classify.js';
import { discoverPrinters, formatDiscovered } from './discover.js';
import { listLinuxSerialPorts } from './serial-ports.js';

function queuesSpooler(queues: SpoolerQueue[]): Spooler {
  return {
    listQueues: async () => queues,
    queueStatus: async () => null,
    submit: async () => '1',
    jobState: async () => 'completed',
    cancel: async () => undefined,
  };
}

describe('printer discovery', () => {
  test('USB printers, serial ports and system queues are listed with URIs the agent parses', async () => {
    const result = await discoverPrinters({
      usb: new RecordingUsbBackend([
        new RecordingUsbDevice({
          vendorId: 0x04b8,
          productId: 0x0202,
          interfaces: [printerClassInterface()],
          serial: 'X 1',
          manufacturer: 'EPSON',
          product: 'TM-T20III',
        }),
        new RecordingUsbDevice({
          vendorId: 0x0a5f,
          productId: 0x0166,
          interfaces: [printerClassInterface(0, false)],
          product: 'ZD421',
          accessDenied: true,
        }),
      ]),
      serialPorts: async () => [{ path: '/dev/ttyUSB0', manufacturer: 'Prolific' }],
      spooler: queuesSpooler([
        {
          name: 'Office Laser',
          description: 'HP LaserJet',
          isDefault: true,
          device: 'ipp://10.0.0.3',
        },
        {
          name: 'Kitchen',
          description: 'EPSON TM-m30',
          isDefault: false,
          device: 'usb://EPSON/TM-m30',
        },
        {
          name: 'Labels',
          description: 'Zebra ZD421',
          isDefault: false,
          device: 'usb://Zebra/ZD421',
        },
      ]),
    });
    assert.deepEqual(result.problems, []);
    assert.deepEqual(
      result.printers.map((p) => [p.uri, p.connection, p.kind, p.language, p.name]),
      [
        ['usb://04b8:0202/X%201', 'usb', 'receipt', 'escpos', 'EPSON TM-T20III'],
        ['usb://0a5f:0166?lang=zpl', 'usb', 'label', 'zpl', 'USB printer 0a5f:0166'],
        [
          'serial:/dev/ttyUSB0?baud=9600',
          'serial',
          'receipt',
          'escpos',
          'Prolific serial port /dev/ttyUSB0',
        ],
        ['system:Office%20Laser', 'system', 'office', 'escpos', 'HP LaserJet'],
        ['system:Kitchen', 'system', 'receipt', 'escpos', 'EPSON TM-m30'],
        ['system:Labels?lang=zpl', 'system', 'label', 'zpl', 'Zebra ZD421'],
      ],
    );
    for (const p of result.printers) {
      const spec = parsePrinterUri(p.uri);
      assert.equal(spec.target.connection, p.connection);
      assert.equal(spec.language, p.language);
    }
    const [epson, zebra] = result.printers;
    assert.ok(epson!.capabilities.includes('status') && epson!.capabilities.includes('pdf'));
    assert.deepEqual(zebra!.capabilities, ['zpl', 'raw', 'status']);
    assert.match(zebra!.note ?? '', /udev/);
    assert.equal(result.printers.find((p) => p.name === 'HP LaserJet')?.isDefault, true);
    assert.deepEqual(result.printers.find((p) => p.kind === 'office')?.capabilities, [
      'pdf',
      'image',
      'html',
      'raw',
      'status',
    ]);
  });

  test('a source that fails is named and the others are still listed', async () => {
    const result = await discoverPrinters({
      serialPorts: async () => {
        throw new Error('udevadm not found');
      },
      spooler: queuesSpooler([{ name: 'A', description: null, isDefault: false, device: null }]),
    });
    assert.deepEqual(result.problems, ['serial: udevadm not found']);
    assert.deepEqual(
      result.printers.map((p) => p.uri),
      ['system:A'],
    );
    assert.match(formatDiscovered(result), /system:A\s+office\s+A\nnot searched: serial/);
  });

  test('queue names that say EPL, Zebra or a receipt model are classified', () => {
    const q = (name: string, description: string | null = null) =>
      classifyQueue({ name, description, isDefault: false, device: null });
    assert.deepEqual(q('Zebra_LP2844'), { kind: 'label', language: 'epl' });
    assert.deepEqual(q('shipping', 'Zebra GK420d'), { kind: 'label', language: 'zpl' });
    assert.deepEqual(q('Star_TSP143'), { kind: 'receipt', language: 'escpos' });
    assert.deepEqual(q('POS-80'), { kind: 'receipt', language: 'escpos' });
    assert.deepEqual(q('Brother_HL_L2350DW'), { kind: 'office', language: 'escpos' });
  });
});

describe('serial ports from sysfs', () => {
  const root = mkdtempSync(join(tmpdir(), 'pw-sysfs-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  test('USB adapters and UARTs with hardware are listed, placeholder ttyS and consoles are not', async () => {
    const tty = join(root, 'class', 'tty');
    const usbDevice = join(root, 'devices', 'usb1', '1-1');
    mkdirSync(join(usbDevice, '1-1:1.0'), { recursive: true });
    writeFileSync(join(usbDevice, 'manufacturer'), 'FTDI\n');
    for (const name of ['ttyUSB0', 'ttyS0', 'ttyS1', 'tty0', 'ttyACM0'])
      mkdirSync(join(tty, name), { recursive: true });
    const { symlinkSync } = await import('node:fs');
    symlinkSync(join(usbDevice, '1-1:1.0'), join(tty, 'ttyUSB0', 'device'));
    writeFileSync(join(tty, 'ttyS0', 'type'), '4\n');
    writeFileSync(join(tty, 'ttyS1', 'type'), '0\n');
    assert.deepEqual(await listLinuxSerialPorts(tty), [
      { path: '/dev/ttyACM0', manufacturer: null },
      { path: '/dev/ttyS0', manufacturer: null },
      { path: '/dev/ttyUSB0', manufacturer: 'FTDI' },
    ]);
  });
});

describe('discovery of real CUPS queues', () => {
  const name = `printwire_disc_${process.pid}`;
  let queue: CupsTestQueue | null = null;
  let skipReason = '';
  before(async () => {
    ({ queue, skipReason } = await cupsQueueForTests(name));
  });
  after(async () => {
    await queue?.remove();
  });

  test('a CUPS queue is found as a system printer', async (t) => {
    if (!queue) return t.skip(skipReason);
    const result = await discoverPrinters({ spooler: new CupsSpooler() });
    const found = result.printers.find((p) => p.uri === `system:${name}`);
    assert.equal(found?.kind, 'office');
    assert.equal(found?.connection, 'system');
  });
});
