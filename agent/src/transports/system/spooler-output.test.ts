import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cupsQueueStatus,
  parseAccepting,
  parseCupsQueues,
  parseLpRequestId,
  parseLpstatPrinters,
} from './cups-output.js';
import { decodeJobState, encodeGetJobState } from './ipp-job-state.js';
import { detectSpoolFormat } from './spooler.js';
import { windowsJobState, windowsPrinterStatus } from './windows-spooler.js';

const LPSTAT = `printer front is idle.  enabled since Sun Nov 22 01:47:55 2026
\tForm mounted:
\tContent types: any
\tDescription: Front counter
\tAlerts: none
\tConnection: direct
printer back disabled since Sun Nov 22 01:48:05 2026 -
\tout of paper test
\tDescription: Kitchen
\tAlerts: paused
printer label is idle.  enabled since Sun Nov 22 01:47:55 2026
\tDescription:
\tAlerts: media-empty-error media-needed
`;

describe('CUPS tool output', () => {
  test('lp request ids are read from its answer', () => {
    assert.equal(parseLpRequestId('request id is front-42 (1 file(s))\n'), 'front-42');
    assert.equal(parseLpRequestId('lp: The printer or class does not exist.'), null);
  });

  test('lpstat -l -p gives each queue its state, stop reason, alerts and description', () => {
    const printers = parseLpstatPrinters(LPSTAT);
    assert.deepEqual(
      printers.map((p) => [p.name, p.state, p.message, p.alerts, p.description]),
      [
        ['front', 'idle', null, [], 'Front counter'],
        ['back', 'disabled', 'out of paper test', ['paused'], 'Kitchen'],
        ['label', 'idle', null, ['media-empty-error', 'media-needed'], null],
      ],
    );
  });

  test('queue state becomes printer status: stopped is offline, rejecting is error, media-empty is paper out', () => {
    const [front, back, label] = parseLpstatPrinters(LPSTAT);
    assert.deepEqual(cupsQueueStatus(front!, true), { status: 'online', detail: null });
    assert.deepEqual(cupsQueueStatus(back!, true), {
      status: 'offline',
      detail: 'queue is stopped: out of paper test',
    });
    assert.equal(cupsQueueStatus(front!, false).status, 'error');
    assert.equal(cupsQueueStatus(label!, true).status, 'paper_out');
  });

  test('lpstat -a tells accepting queues', () => {
    const out = 'front accepting requests since Sun\nback not accepting requests since Sun -\n';
    assert.equal(parseAccepting(out, 'front'), true);
    assert.equal(parseAccepting(out, 'back'), false);
  });

  test('queues are listed with the default and their devices', () => {
    const queues = parseCupsQueues(
      LPSTAT,
      'device for front: usb://EPSON/TM-T20III?serial=X\ndevice for back: socket://10.0.0.9\n',
      'system default destination: back\n',
    );
    assert.deepEqual(
      queues.map((q) => [q.name, q.isDefault, q.device]),
      [
        ['front', false, 'usb://EPSON/TM-T20III?serial=X'],
        ['back', true, 'socket://10.0.0.9'],
        ['label', false, null],
      ],
    );
  });
});

describe('IPP job state', () => {
  test('a Get-Job-Attributes request carries the operation, printer and job id', () => {
    const req = encodeGetJobState('front desk', 42, 'pos');
    assert.equal(req.readUInt16BE(2), 0x0009);
    assert.ok(req.includes(Buffer.from('ipp://localhost/printers/front%20desk')));
    assert.equal(req.at(-1), 0x03);
  });

  test('job-state is read from a response, other attributes skipped', () => {
    const attr = (tag: number, name: string, value: Buffer) => {
      const b = Buffer.alloc(5 + name.length + value.length);
      b[0] = tag;
      b.writeUInt16BE(name.length, 1);
      b.write(name, 3);
      b.writeUInt16BE(value.length, 3 + name.length);
      value.copy(b, 5 + name.length);
      return b;
    };
    const int = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeInt32BE(n);
      return b;
    };
    const response = (status: number, state: number) =>
      Buffer.concat([
        Buffer.from([2, 0, status >> 8, status & 0xff, 0, 0, 0, 1, 0x01]),
        attr(0x47, 'attributes-charset', Buffer.from('utf-8')),
        Buffer.from([0x02]),
        attr(0x41, 'job-name', Buffer.from('x')),
        attr(0x23, 'job-state', int(state)),
        Buffer.from([0x03]),
      ]);
    assert.equal(decodeJobState(response(0, 9)), 'completed');
    assert.equal(decodeJobState(response(0, 7)), 'canceled');
    assert.equal(decodeJobState(response(0, 5)), 'processing');
    assert.equal(decodeJobState(response(0x0406, 9)), null);
  });
});

describe('spooler formats and Windows states', () => {
  test('PDF, PostScript, PNG and JPEG go as documents; ESC/POS and ZPL raw', () => {
    assert.equal(detectSpoolFormat(Buffer.from('%PDF-1.7')), 'document');
    assert.equal(detectSpoolFormat(Buffer.from('%!PS-Adobe')), 'document');
    assert.equal(detectSpoolFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d])), 'document');
    assert.equal(detectSpoolFormat(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'document');
    assert.equal(detectSpoolFormat(Buffer.from([0x1b, 0x40])), 'raw');
    assert.equal(detectSpoolFormat(Buffer.from('^XA^XZ')), 'raw');
    assert.equal(detectSpoolFormat(new Uint8Array(0)), 'raw');
  });

  test('Get-Printer and Get-PrintJob states map onto the agent states', () => {
    assert.equal(windowsPrinterStatus('Normal').status, 'online');
    assert.equal(windowsPrinterStatus('PaperOut').status, 'paper_out');
    assert.equal(windowsPrinterStatus('Offline').status, 'offline');
    assert.equal(windowsPrinterStatus('PaperJam').status, 'error');
    assert.equal(windowsJobState('Gone'), 'completed');
    assert.equal(windowsJobState('Printing, Retained'), 'processing');
    assert.equal(windowsJobState('Deleting'), 'canceled');
    assert.equal(windowsJobState('Error, Printing'), 'stopped');
  });
});
