import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { PrintwireError } from '@printwire/shared/errors/index';
import { parsePrinterUri } from '../../config/printer-uri.js';
import type { TransportOptions } from '../transport.js';
import { listUsbPrinters } from './enumerate.js';
import {
  printerClassInterface,
  RecordingUsbBackend,
  RecordingUsbDevice,
  type RecordingUsbDeviceOptions,
} from './recording-usb-device.js';
import {
  decodePortStatus,
  USB_DEFAULTS,
  usbAccessFix,
  usbTransportFactory,
} from './usb-transport.js';

const EPSON = 0x04b8;

function epson(options: Partial<RecordingUsbDeviceOptions> = {}): RecordingUsbDevice {
  return new RecordingUsbDevice({
    vendorId: EPSON,
    productId: 0x0202,
    interfaces: [printerClassInterface()],
    serial: 'TM001',
    product: 'TM-T20III',
    manufacturer: 'EPSON',
    answersStatus: true,
    maxTransferBytes: USB_DEFAULTS.chunkBytes,
    ...options,
  });
}

function transportFor(device: RecordingUsbDevice, uri: string, options: TransportOptions = {}) {
  const factory = usbTransportFactory(new RecordingUsbBackend([device]));
  return factory(parsePrinterUri(uri).target, options);
}

async function rejectsWith(promise: Promise<unknown>, code: string, message?: RegExp) {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof PrintwireError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.retryable, true);
    if (message) assert.match(e.message, message);
    return true;
  });
}

describe('USB enumeration', () => {
  test('printer-class devices and known ESC/POS vendors are listed, other devices are not', async () => {
    const keyboard = new RecordingUsbDevice({
      vendorId: 0x046d,
      productId: 0xc31c,
      interfaces: [
        {
          number: 0,
          classCode: 3,
          subclass: 1,
          protocol: 1,
          endpoints: [{ address: 0x81, direction: 'in', transfer: 'interrupt' }],
        },
      ],
    });
    const office = new RecordingUsbDevice({
      vendorId: 0x03f0,
      productId: 0x1234,
      interfaces: [printerClassInterface(0, false)],
      serial: 'HP1',
    });
    const vendorSpecific = (vendorId: number) =>
      new RecordingUsbDevice({
        vendorId,
        productId: 0x5011,
        interfaces: [
          {
            number: 0,
            classCode: 0xff,
            subclass: 0,
            protocol: 0,
            endpoints: [{ address: 0x03, direction: 'out', transfer: 'bulk' }],
          },
        ],
      });
    const printers = await listUsbPrinters(
      new RecordingUsbBackend([
        keyboard,
        office,
        epson(),
        vendorSpecific(0x0416),
        vendorSpecific(0x1234),
        vendorSpecific(0x0a5f),
      ]),
    );
    assert.deepEqual(
      printers.map((p) => [p.uri, p.bidirectional, p.product]),
      [
        ['usb://03f0:1234/HP1', false, null],
        ['usb://04b8:0202/TM001', true, 'TM-T20III'],
        ['usb://0416:5011', false, null],
        ['usb://0a5f:5011?lang=zpl', false, null],
      ],
    );
  });

  test('a printer the OS does not let us open is listed with the fix', async () => {
    const [printer] = await listUsbPrinters(
      new RecordingUsbBackend([epson({ accessDenied: true })]),
    );
    assert.equal(printer?.uri, 'usb://04b8:0202');
    assert.match(printer?.problem ?? '', /udev/);
  });
});

describe('USB transport', () => {
  test('a job goes to bulk OUT in chunks no larger than the endpoint takes, every byte in order', async () => {
    const device = epson();
    const job = randomBytes(100_000).map((b) => (b === 0x10 ? 0x11 : b));
    const transport = transportFor(device, 'usb://04b8:0202');
    await transport.open();
    await transport.write(job);
    await transport.close();
    assert.equal(Buffer.compare(device.received, Buffer.from(job)), 0);
    assert.equal(device.transfers.length, Math.ceil(job.length / USB_DEFAULTS.chunkBytes));
    assert.ok(device.transfers.every((t) => t.length <= USB_DEFAULTS.chunkBytes));
  });

  test('the kernel driver is detached while printing and given back on close', async () => {
    const device = epson();
    const transport = transportFor(device, 'usb://04b8:0202');
    await transport.open();
    assert.deepEqual(device.claimed, [0]);
    assert.equal(device.kernelDriverAttached, false);
    await transport.close();
    assert.equal(device.kernelDriverAttached, true);
    assert.equal(device.opened, false);
  });

  test('status is read on bulk IN: online, paper out, cover open', async () => {
    const device = epson();
    const transport = transportFor(device, 'usb://04b8:0202');
    await transport.open();
    assert.deepEqual(await transport.readStatus(), { status: 'online', detail: null });
    device.paperOut = true;
    assert.equal((await transport.readStatus())?.status, 'paper_out');
    device.paperOut = false;
    device.coverOpen = true;
    assert.equal((await transport.readStatus())?.status, 'cover_open');
    await transport.close();
  });

  test('a one-way printer-class printer reports through GET_PORT_STATUS, without DLE EOT', async () => {
    const oneWay = epson({ interfaces: [printerClassInterface(0, false)] });
    const transport = transportFor(oneWay, 'usb://04b8:0202');
    await transport.open();
    assert.deepEqual(await transport.readStatus(), { status: 'online', detail: null });
    oneWay.paperOut = true;
    assert.deepEqual(await transport.readStatus(), { status: 'paper_out', detail: 'paper out' });
    assert.equal(oneWay.transfers.length, 0, 'no DLE EOT is sent where no answer can come');
    assert.equal(oneWay.portStatusRequests, 2);
    await transport.close();
  });

  test('a label printer on the printer class is asked its port status, never DLE EOT', async () => {
    const zebra = epson({ vendorId: 0x0a5f, productId: 0x0166 });
    const transport = transportFor(zebra, 'usb://0a5f:0166', { language: 'zpl' });
    await transport.open();
    zebra.coverOpen = true;
    assert.equal((await transport.readStatus())?.status, 'error');
    await transport.close();
    assert.equal(zebra.transfers.length, 0);
  });

  test('an ESC/POS printer that does not answer DLE EOT falls back to the port status', async () => {
    const silent = epson({ answersStatus: false });
    const transport = transportFor(silent, 'usb://04b8:0202', { statusTimeoutMs: 50 });
    await transport.open();
    const started = performance.now();
    assert.deepEqual(await transport.readStatus(), { status: 'online', detail: null });
    assert.ok(performance.now() - started >= 45);
    assert.equal(silent.portStatusRequests, 1);
    await transport.close();
  });

  test('a vendor-specific printer that answers nothing reads null after the timeout', async () => {
    const silent = new RecordingUsbDevice({
      vendorId: 0x0416,
      productId: 0x5011,
      interfaces: [
        {
          number: 0,
          classCode: 0xff,
          subclass: 0,
          protocol: 0,
          endpoints: [
            { address: 0x03, direction: 'out', transfer: 'bulk' },
            { address: 0x81, direction: 'in', transfer: 'bulk' },
          ],
        },
      ],
    });
    const transport = transportFor(silent, 'usb://0416:5011', { statusTimeoutMs: 50 });
    await transport.open();
    assert.equal(await transport.readStatus(), null);
    await transport.close();
  });

  test('port status bits: paper empty, not selected, error', () => {
    assert.deepEqual(decodePortStatus(0x18), { status: 'online', detail: null });
    assert.equal(decodePortStatus(0x38).status, 'paper_out');
    assert.equal(decodePortStatus(0x08).status, 'offline');
    assert.equal(decodePortStatus(0x10).status, 'error');
  });

  test('the serial number in the URI picks one of two identical printers', async () => {
    const a = epson({ serial: 'A' });
    const b = epson({ serial: 'B' });
    const factory = usbTransportFactory(new RecordingUsbBackend([a, b]));
    const transport = factory(parsePrinterUri('usb://04b8:0202/B').target, {});
    await transport.open();
    await transport.write(Buffer.from('hello'));
    await transport.close();
    assert.equal(a.received.length, 0);
    assert.equal(b.received.toString(), 'hello');
  });

  test('access denied fails with the fix: a udev rule on Linux, WinUSB on Windows', async () => {
    const device = epson({ accessDenied: true });
    await rejectsWith(
      transportFor(device, 'usb://04b8:0202').open(),
      'CONNECTION_REFUSED',
      /denied/,
    );
    assert.match(usbAccessFix(EPSON, 0x0202, 'linux'), /ATTRS\{idVendor\}=="04b8".*udevadm/);
    assert.match(usbAccessFix(EPSON, 0x0202, 'win32'), /WinUSB.*Zadig/);
  });

  test('a printer that is not plugged in fails with PRINTER_OFFLINE', async () => {
    await rejectsWith(transportFor(epson(), 'usb://04b8:9999').open(), 'PRINTER_OFFLINE');
  });

  test('an interface held by another driver fails with CONNECTION_REFUSED', async () => {
    await rejectsWith(
      transportFor(epson({ busy: true }), 'usb://04b8:0202').open(),
      'CONNECTION_REFUSED',
      /in use/,
    );
  });

  test('a printer unplugged mid-job fails the write with a retryable CONNECTION_LOST', async () => {
    const device = epson({ unplugAfterBytes: 40_000 });
    const transport = transportFor(device, 'usb://04b8:0202');
    await transport.open();
    await rejectsWith(transport.write(Buffer.alloc(100_000, 0x41)), 'CONNECTION_LOST', /unplugged/);
    assert.equal(device.received.length, 40_000);
    // Nothing after the failure claims success: status and further writes fail too.
    await rejectsWith(transport.readStatus(), 'CONNECTION_LOST');
    await rejectsWith(transport.write(Buffer.from('x')), 'CONNECTION_LOST');
    await transport.close();
    // Plugged in again, a new transport prints.
    device.replug();
    const again = transportFor(device, 'usb://04b8:0202');
    await again.open();
    await again.write(Buffer.from('retry'));
    await again.close();
    assert.equal(device.received.subarray(40_000).toString(), 'retry');
  });

  test('the double rejects overlapping transfers like hardware', async () => {
    const device = epson();
    await device.open();
    await device.claim(0);
    const first = device.transferOut(0x01, Buffer.from('a'));
    await assert.rejects(device.transferOut(0x01, Buffer.from('b')), /in flight/);
    await first;
  });
});
