import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrintwireError } from '../errors/index.js';
import { encodeReceipt, encodeReceiptWithReport } from './index.js';
import { ascii, body, h, HEADER, hex, profileWith } from '../testing/receipt.js';

describe('the job header', () => {
  test('a job starts with ESC @ and ESC t with the codepage number of the profile', () => {
    assert.equal(hex(encodeReceipt({ blocks: [] }, 'generic-58mm')), HEADER);
    const cp866 = encodeReceipt({ codepage: 'CP866', blocks: [] }, 'citizen-ct-s310ii');
    assert.equal(hex(cp866), h`1b40 1b7407`);
  });

  test('the document codepage beats the job option, which beats the profile default', () => {
    const doc = { codepage: 'CP1252', blocks: [] };
    assert.equal(hex(encodeReceipt(doc, 'generic-80mm', { codepage: 'CP866' })), h`1b40 1b7410`);
    assert.equal(
      hex(encodeReceipt({ blocks: [] }, 'generic-80mm', { codepage: 'CP866' })),
      h`1b40 1b7411`,
    );
    assert.equal(hex(encodeReceipt({ blocks: [] }, 'generic-80mm')), h`1b40 1b7413`);
    assert.equal(
      hex(encodeReceipt({ codepage: 'iso-8859-15', blocks: [] }, 'generic-80mm')),
      h`1b40 1b7428`,
    );
    assert.equal(
      hex(encodeReceipt({ codepage: 'CP437', blocks: [] }, 'generic-80mm')),
      h`1b40 1b7400`,
    );
    assert.equal(
      hex(encodeReceipt({ codepage: 'CP850', blocks: [] }, 'generic-80mm')),
      h`1b40 1b7402`,
    );
  });

  test('a codepage the printer lacks falls back to its default, with a warning', () => {
    const r = encodeReceiptWithReport(
      { codepage: 'ISO-8859-15', blocks: [] },
      'xprinter-xp-n160ii',
    );
    assert.equal(hex(r.bytes), h`1b40 1b7413`);
    assert.equal(r.codepage, 'CP858');
    assert.match(r.warnings[0]!, /Xprinter XP-N160II has no ISO-8859-15; text is encoded in CP858/);
  });

  test('an unknown codepage in the job options is an INVALID_JOB error naming the option', () => {
    assert.throws(
      () => encodeReceipt({ blocks: [] }, 'generic-80mm', { codepage: 'UTF-8' as 'CP437' }),
      (err: unknown) =>
        err instanceof PrintwireError &&
        err.code === 'INVALID_JOB' &&
        /options\.codepage: must be one of CP437/.test(err.message),
    );
  });
});

describe('job options', () => {
  const doc = {
    blocks: [
      { type: 'text' as const, value: 'A' },
      { type: 'cut' as const, mode: 'partial' as const },
    ],
  };

  test('copies repeat the whole document, each with its cut', () => {
    assert.equal(
      hex(encodeReceipt(doc, 'generic-80mm', { copies: 2 })),
      h`${HEADER} 410a 1d564200 410a 1d564200`,
    );
  });

  test('the cut option replaces the cut that ends the document, and none drops it', () => {
    assert.equal(
      hex(encodeReceipt(doc, 'generic-80mm', { cut: 'full' })),
      h`${HEADER} 410a 1d564100`,
    );
    assert.equal(
      hex(encodeReceipt(doc, 'generic-80mm', { cut: 'none', copies: 2 })),
      h`${HEADER} 410a 410a`,
    );
    const uncut = { blocks: [{ type: 'text' as const, value: 'A' }] };
    assert.equal(hex(encodeReceipt(uncut, 'generic-80mm')), h`${HEADER} 410a`);
    assert.equal(
      hex(encodeReceipt(uncut, 'generic-80mm', { cut: 'partial' })),
      h`${HEADER} 410a 1d564200`,
    );
  });

  test('the footer comes before the final cut of each copy and the drawer opens once at the end', () => {
    const footer = h`1b6101 1b4d01 ${ascii('Printed with Printwire')}0a 1b4d00 1b6100`;
    const out = hex(
      encodeReceipt(doc, 'generic-80mm', { copies: 2, footer: true, openDrawer: true }),
    );
    assert.equal(out, h`${HEADER} 410a ${footer} 1d564200 410a ${footer} 1d564200 1b7000 19fa`);
  });

  test('copies are limited to 1-10 and other options are checked', () => {
    for (const copies of [1, 10])
      assert.doesNotThrow(() => encodeReceipt(doc, 'generic-80mm', { copies }));
    for (const copies of [0, 11, 1.5]) {
      assert.throws(
        () => encodeReceipt(doc, 'generic-80mm', { copies }),
        (err: unknown) =>
          err instanceof PrintwireError && /options\.copies: must be 1-10/.test(err.message),
      );
    }
    assert.throws(
      () => encodeReceipt(doc, 'generic-80mm', { cut: 'half' as 'full' }),
      /options\.cut: must be full, partial or none/,
    );
  });
});

describe('paper and profiles', () => {
  const wide = 'W'.repeat(40);

  test('a 58mm document on an 80mm printer lays out at 32 characters', () => {
    const out = body([{ type: 'text', value: wide }], {}, 'generic-80mm', { width: '58mm' });
    assert.equal(out, `${ascii('W'.repeat(32))}0a${ascii('W'.repeat(8))}0a`);
  });

  test('an 80mm document on a 58mm printer is laid out at 58mm, with a warning', () => {
    const r = encodeReceiptWithReport(
      { width: '80mm', blocks: [{ type: 'line' }] },
      'generic-58mm',
    );
    assert.equal(hex(r.bytes), h`${HEADER} ${'c4'.repeat(32)}0a`);
    assert.equal(r.paper, '58mm');
    assert.match(
      r.warnings[0]!,
      /width: the 80mm document is laid out on the printer's 58mm paper/,
    );
  });

  test('the paper option narrows an 80mm profile to 58mm', () => {
    assert.equal(body([{ type: 'line' }], { paper: '58mm' }), `${'c4'.repeat(32)}0a`);
  });

  test("a profile's own characters per line apply on its paper", () => {
    assert.equal(body([{ type: 'line' }], {}, 'epson-tm-t88vi'), `${'c4'.repeat(42)}0a`);
  });

  test('an unknown profile id is NOT_FOUND and an invalid profile object is INVALID_JOB', () => {
    assert.throws(
      () => encodeReceipt({ blocks: [] }, 'no-such-printer'),
      (err: unknown) => err instanceof PrintwireError && err.code === 'NOT_FOUND',
    );
    const broken = profileWith('generic-80mm', { dotsPerLine: 5 });
    assert.throws(
      () => encodeReceipt({ blocks: [] }, broken),
      (err: unknown) => err instanceof PrintwireError && err.code === 'INVALID_JOB',
    );
  });
});

describe('documents and transliteration', () => {
  test('an invalid document throws INVALID_JOB with one issue per field', () => {
    assert.throws(
      () =>
        encodeReceipt(
          {
            blocks: [
              { type: 'text', value: 'x', size: 9 },
              { type: 'feed', lines: 0 },
            ],
          },
          'generic-80mm',
        ),
      (err: unknown) => {
        assert.ok(err instanceof PrintwireError);
        assert.equal(err.code, 'INVALID_JOB');
        assert.deepEqual(err.details, [
          { path: 'blocks[0].size', message: 'blocks[0].size: must be 1-8' },
          { path: 'blocks[1].lines', message: 'blocks[1].lines: must be 1-255' },
        ]);
        assert.equal(err.message, 'invalid receipt: blocks[0].size: must be 1-8 (and 1 more)');
        return true;
      },
    );
  });

  test('characters the codepage lacks are transliterated and reported once with a count', () => {
    const r = encodeReceiptWithReport(
      {
        codepage: 'CP437',
        blocks: [
          { type: 'text', value: 'Cœur “doré” – 5 €' },
          { type: 'pair', left: 'Œuf', right: '2 €' },
        ],
      },
      'generic-80mm',
    );
    assert.equal(
      hex(r.bytes),
      h`1b40 1b7400 ${ascii('Coeur "dor')}82${ascii('" - 5 EUR')}0a ${ascii('OEuf' + ' '.repeat(39) + '2 EUR')}0a`,
    );
    assert.deepEqual(
      r.substitutions.map((s) => [s.char, s.replacement, s.count]),
      [
        ['œ', 'oe', 1],
        ['“', '"', 1],
        ['”', '"', 1],
        ['–', '-', 1],
        ['€', 'EUR', 2],
        ['Œ', 'OE', 1],
      ],
    );
    assert.ok(r.substitutions.every((s) => s.codepage === 'CP437'));
  });

  test('the standard receipt encodes without warnings or substitutions', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = JSON.parse(
      readFileSync(
        new URL('../../../test/fixtures/receipts/01-bakery-80mm-cp437.json', import.meta.url),
        'utf8',
      ),
    ) as unknown;
    const r = encodeReceiptWithReport(doc, 'generic-80mm');
    assert.deepEqual(r.warnings, []);
    assert.ok(r.bytes.length > 1000);
  });
});
