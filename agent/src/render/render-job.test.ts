import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EncodeOptions } from '@printwire/shared/receipt/index';
import { renderJob, type RenderTarget } from './render-job.js';

const receiptPrinter: RenderTarget = {
  language: 'escpos',
  paper: '80mm',
  codepage: null,
  cut: null,
  profileId: null,
};
const zebra: RenderTarget = { ...receiptPrinter, language: 'zpl' };

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function job(type: string, content: unknown, options = {}, encoding = 'utf8') {
  return { id: 'job_1', type, encoding, content, options } as Parameters<typeof renderJob>[0];
}

function rejects(fn: () => unknown, code: string, pattern: RegExp) {
  assert.throws(fn, (e: Error & { code?: string; retryable?: boolean }) => {
    assert.equal(e.code, code);
    assert.equal(e.retryable, false);
    assert.match(e.message, pattern);
    return true;
  });
}

describe('rendering jobs for the printer', () => {
  test('text is ESC/POS text in the codepage, fed and cut', () => {
    const bytes = renderJob(job('text', 'Total 5 €', { codepage: 'CP858' }), receiptPrinter);
    assert.equal(
      hex(bytes),
      '1b40' +
        '1b7413' +
        Buffer.from('Total 5 ').toString('hex') +
        'd5' +
        '0a' +
        '1b6404' +
        '1d5600',
    );
  });

  test('text the codepage lacks is transliterated', () => {
    const bytes = renderJob(job('text', 'œuf', { codepage: 'CP437', cut: 'none' }), receiptPrinter);
    assert.equal(Buffer.from(bytes).subarray(5).toString('latin1'), 'oeuf\n');
  });

  test('text lines keep their breaks; copies repeat the whole page and the drawer opens once', () => {
    const one = renderJob(job('text', 'a\r\nb', { cut: 'partial' }), receiptPrinter);
    const two = renderJob(
      job('text', 'a\r\nb', { cut: 'partial', copies: 2, openDrawer: true }),
      receiptPrinter,
    );
    assert.ok(hex(one).includes('610a620a1b64041d5601'));
    assert.equal(hex(two), hex(one) + hex(one) + '1b700019fa');
  });

  test('the printer default cut applies when the job sets none', () => {
    const bytes = renderJob(job('text', 'x'), { ...receiptPrinter, cut: 'none' });
    assert.equal(hex(bytes).includes('1d56'), false);
  });

  test('escpos bytes go out as they are, with the cut the options ask for', () => {
    const raw = Buffer.from([0x1b, 0x40, 0x41, 0x0a]).toString('base64');
    assert.equal(hex(renderJob(job('escpos', raw, {}, 'base64'), receiptPrinter)), '1b40410a');
    assert.equal(
      hex(renderJob(job('escpos', raw, { cut: 'full', copies: 2 }, 'base64'), receiptPrinter)),
      '1b40410a1b64041d5600'.repeat(2),
    );
  });

  test('invalid base64 is an invalid job', () => {
    rejects(
      () => renderJob(job('raw', 'abc$', {}, 'base64'), receiptPrinter),
      'INVALID_JOB',
      /base64/,
    );
  });

  test('ZPL goes to a ZPL printer as text, its copies counted by the printer with ^PQ', () => {
    const zpl = '^XA^FDHi^FS^XZ';
    assert.equal(
      Buffer.from(renderJob(job('zpl', zpl, { copies: 2 }), zebra)).toString(),
      '^XA^FDHi^FS^PQ2^XZ',
    );
    assert.equal(Buffer.from(renderJob(job('zpl', zpl), zebra)).toString(), zpl);
  });

  test('EPL goes to an EPL printer with its print command counting the copies', () => {
    const epl = 'N\nA50,0,0,1,1,1,N,"Hi"\nP1\n';
    assert.equal(
      Buffer.from(
        renderJob(job('epl', epl, { copies: 3 }), { ...receiptPrinter, language: 'epl' }),
      ).toString(),
      'N\nA50,0,0,1,1,1,N,"Hi"\nP3\n',
    );
  });

  test('an office queue of the system spooler refuses receipt, text and escpos jobs for good', () => {
    const office: RenderTarget = { ...receiptPrinter, connection: 'system', kind: 'office' };
    for (const type of ['receipt', 'text', 'escpos'] as const) {
      rejects(() => renderJob(job(type, '{}'), office), 'UNSUPPORTED_JOB', /office printer/);
    }
    const receiptQueue: RenderTarget = { ...office, kind: 'receipt' };
    assert.ok(renderJob(job('text', 'x'), receiptQueue).length > 0);
  });

  test('a job in another printer language is refused with a hint', () => {
    rejects(() => renderJob(job('zpl', '^XA^XZ'), receiptPrinter), 'UNSUPPORTED_JOB', /lang=zpl/);
    rejects(
      () => renderJob(job('text', 'x'), zebra),
      'UNSUPPORTED_JOB',
      /text job cannot print on a zpl/,
    );
  });

  test('job types and encodings of later agent versions are refused as unsupported', () => {
    rejects(
      () => renderJob(job('pdf', 'JVBER', {}, 'base64'), receiptPrinter),
      'UNSUPPORTED_JOB',
      /pdf/,
    );
    rejects(
      () => renderJob(job('text', 'https://example.com/a.txt', {}, 'url'), receiptPrinter),
      'UNSUPPORTED_JOB',
      /url/,
    );
  });

  test('receipts go through the receipt engine with the printer profile and the job options', () => {
    const calls: Array<[unknown, string, EncodeOptions]> = [];
    const encoder = (doc: unknown, profile: string, options: EncodeOptions) => {
      calls.push([doc, profile, options]);
      return Uint8Array.of(1, 2, 3);
    };
    const document = { blocks: [{ type: 'text', value: 'Hi' }] };
    const target: RenderTarget = {
      ...receiptPrinter,
      paper: '58mm',
      codepage: 'CP858',
      cut: 'partial',
    };
    const bytes = renderJob(
      job('receipt', document, { copies: 2, openDrawer: true }, 'json'),
      target,
      encoder,
    );
    assert.deepEqual([...bytes], [1, 2, 3]);
    assert.deepEqual(calls, [
      [
        document,
        'generic-58mm',
        { paper: '58mm', codepage: 'CP858', copies: 2, cut: 'partial', openDrawer: true },
      ],
    ]);
  });

  test('a receipt renders through the real engine', () => {
    const document = { blocks: [{ type: 'text', value: 'Hello receipt' }] };
    const bytes = Buffer.from(renderJob(job('receipt', document, {}, 'json'), receiptPrinter));
    assert.equal(hex(bytes.subarray(0, 2)), '1b40');
    assert.ok(bytes.includes('Hello receipt'));
  });

  test('an invalid receipt is an invalid job naming the field', () => {
    const document = { blocks: [{ type: 'text', value: 'x', size: 9 }] };
    rejects(
      () => renderJob(job('receipt', document, {}, 'json'), receiptPrinter),
      'INVALID_JOB',
      /./,
    );
  });
});
