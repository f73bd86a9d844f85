import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { printerReachSchema } from '@printwire/shared/protocol/index';
import { parsePrinterUri, reachOf } from './printer-uri.js';

function rejects(uri: string, pattern: RegExp) {
  assert.throws(
    () => parsePrinterUri(uri),
    (e: Error & { code?: string }) => e.code === 'VALIDATION_FAILED' && pattern.test(e.message),
    uri,
  );
}

describe('printer URIs', () => {
  test('each URI says how its printer is reached, in the form the protocol takes', () => {
    const cases: Array<[string, object]> = [
      ['tcp://10.0.0.5', { via: 'tcp', host: '10.0.0.5', port: 9100 }],
      ['tcp://[fe80::1]:9101', { via: 'tcp', host: 'fe80::1', port: 9101 }],
      [
        'usb://04b8:0e28/X7PL000123',
        { via: 'usb', vendorId: '04b8', productId: '0e28', serial: 'X7PL000123' },
      ],
      ['usb://0519:0003', { via: 'usb', vendorId: '0519', productId: '0003', serial: null }],
      ['serial:/dev/ttyUSB0?baud=19200', { via: 'serial', path: '/dev/ttyUSB0', baud: 19200 }],
      ['system:Kitchen%20TM-T20', { via: 'system', queue: 'Kitchen TM-T20' }],
    ];
    for (const [uri, reach] of cases) {
      const got = reachOf(parsePrinterUri(uri).target);
      assert.deepEqual(got, reach, uri);
      assert.equal(printerReachSchema.safeParse(got).success, true, uri);
    }
  });

  test('a tcp URI without a port uses the raw port 9100', () => {
    const spec = parsePrinterUri('tcp://10.0.0.5');
    assert.deepEqual(spec.target, { connection: 'tcp', host: '10.0.0.5', port: 9100 });
    assert.equal(spec.uri, 'tcp://10.0.0.5:9100');
    assert.equal(spec.name, '10.0.0.5:9100');
    assert.equal(spec.language, 'escpos');
  });

  test('a tcp URI takes a port, an IPv6 address and options', () => {
    const spec = parsePrinterUri(
      'TCP://[::1]:9101/?name=Kitchen%20printer&alias=kitchen&paper=58mm&codepage=cp858&lang=escpos',
    );
    assert.deepEqual(spec.target, { connection: 'tcp', host: '::1', port: 9101 });
    assert.equal(spec.name, 'Kitchen printer');
    assert.equal(spec.alias, 'kitchen');
    assert.equal(spec.paper, '58mm');
    assert.equal(spec.codepage, 'CP858');
    assert.equal(spec.connectionKey, 'tcp://[::1]:9101');
  });

  test('ports outside 1-65535 are refused at the edges', () => {
    assert.equal(parsePrinterUri('tcp://h:1').target.connection, 'tcp');
    assert.equal(parsePrinterUri('tcp://h:65535').target.connection, 'tcp');
    rejects('tcp://h:0', /port must be 1-65535/);
    rejects('tcp://h:65536', /port must be 1-65535/);
    rejects('tcp://h:abc', /port must be 1-65535/);
  });

  test('a serial URI takes a path and a baud rate', () => {
    assert.deepEqual(parsePrinterUri('serial:/dev/ttyUSB0?baud=115200').target, {
      connection: 'serial',
      path: '/dev/ttyUSB0',
      baud: 115200,
    });
    assert.deepEqual(parsePrinterUri('serial:COM3').target, {
      connection: 'serial',
      path: 'COM3',
      baud: 9600,
    });
    rejects('serial:/dev/ttyS0?baud=fast', /baud must be/);
    rejects('serial:/dev/ttyS0?baud=299', /baud must be/);
    rejects('tcp://h?baud=9600', /serial printers only/);
  });

  test('a serial URI takes the flow control none, rtscts or xonxoff and keeps it in its canonical form', () => {
    const spec = parsePrinterUri('serial:/dev/ttyUSB0?baud=19200&flow=RTSCTS');
    assert.deepEqual(spec.target, {
      connection: 'serial',
      path: '/dev/ttyUSB0',
      baud: 19200,
      flow: 'rtscts',
    });
    assert.equal(spec.uri, 'serial:/dev/ttyUSB0?baud=19200&flow=rtscts');
    assert.equal(parsePrinterUri(spec.uri).connectionKey, spec.connectionKey);
    assert.equal(parsePrinterUri('serial:COM1?flow=xonxoff').target.connection, 'serial');
    assert.deepEqual(
      (parsePrinterUri('serial:COM1?flow=none').target as { flow?: string }).flow,
      'none',
    );
    rejects('serial:/dev/ttyS0?flow=dtrdsr', /flow must be none, rtscts or xonxoff/);
    rejects('tcp://h?flow=rtscts', /serial printers only/);
  });

  test('a usb URI takes vendor and product ids in hex and an optional serial number', () => {
    assert.deepEqual(parsePrinterUri('usb://04b8:0202/J7GF012345').target, {
      connection: 'usb',
      vendorId: 0x04b8,
      productId: 0x0202,
      serial: 'J7GF012345',
    });
    assert.equal(parsePrinterUri('usb://04B8:0E15').connectionKey, 'usb://04b8:0e15');
    rejects('usb://4b8:202', /4 hex digits/);
    rejects('usb://04b8', /4 hex digits/);
  });

  test('a system URI names a spooler queue, percent-decoded', () => {
    const spec = parsePrinterUri('system:Office%20Laser?lang=escpos');
    assert.deepEqual(spec.target, { connection: 'system', queue: 'Office Laser' });
    assert.equal(spec.name, 'Office Laser');
  });

  test('label printers are declared with lang', () => {
    assert.equal(parsePrinterUri('tcp://zebra?lang=zpl').language, 'zpl');
    assert.equal(parsePrinterUri('tcp://zebra?lang=epl').language, 'epl');
    rejects('tcp://zebra?lang=pcl', /lang must be escpos, zpl or epl/);
  });

  test("a label printer's paper is its label size, with its dpi", () => {
    const spec = parsePrinterUri('tcp://zebra?lang=zpl&paper=4X6in&dpi=300');
    assert.deepEqual([spec.labelSize, spec.dpi, spec.paper], ['4x6in', 300, null]);
    assert.equal(spec.uri, 'tcp://zebra:9100?paper=4x6in&dpi=300&lang=zpl');
    const plain = parsePrinterUri('usb://0a5f:00d3?lang=epl');
    assert.deepEqual([plain.labelSize, plain.dpi], [null, null]);
    assert.equal(parsePrinterUri('tcp://h?lang=epl&paper=100x150mm').labelSize, '100x150mm');
    rejects('tcp://h?lang=zpl&paper=80mm', /paper of a zpl printer: a label size is WIDTHxHEIGHT/);
    rejects('tcp://h?lang=zpl&dpi=200', /dpi must be 203, 300 or 600/);
    rejects('tcp://h?paper=4x6in', /a label size needs lang=zpl or lang=epl/);
    rejects('tcp://h?dpi=203', /dpi applies to zpl and epl printers only/);
  });

  test('bad options are named', () => {
    rejects('tcp://h?papr=58mm', /unknown option 'papr'/);
    rejects('tcp://h?paper=100mm', /paper must be 58mm or 80mm/);
    rejects('tcp://h?codepage=UTF8', /codepage must be one of/);
    rejects('tcp://h?name=a&name=b', /given twice/);
    rejects('tcp://h?name=%E0%A4%A', /percent-encoding/);
  });

  test('missing or unknown schemes and addresses are refused', () => {
    rejects('10.0.0.5', /expected a scheme/);
    rejects('lpd://10.0.0.5', /unknown scheme 'lpd'/);
    rejects('tcp://', /host is missing/);
    rejects('tcp://:9100', /host is missing/);
    rejects('tcp://h/queue', /no path/);
    rejects('system:', /address is missing/);
    rejects('serial:', /address is missing/);
  });

  test('a URI over 1024 characters is refused', () => {
    const base = 'tcp://h:9100?name=';
    const atLimit = parsePrinterUri(base + 'n'.repeat(1024 - base.length));
    assert.equal(atLimit.uri.length, 1024);
    rejects(base + 'n'.repeat(1025 - base.length), /longer than 1024/);
    // Percent-encoding can make the canonical URI longer than what was given.
    rejects(base + 'é'.repeat(200), /longer than 1024 once encoded/);
  });

  test('the connection key ignores options, so renaming keeps the printer', () => {
    const a = parsePrinterUri('tcp://Printer.local?name=A');
    const b = parsePrinterUri('tcp://printer.local:9100?name=B&paper=58mm');
    assert.equal(a.connectionKey, b.connectionKey);
  });
});
