import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { encodeReceiptWithReport, validateReceiptDocument, type ReceiptDocument } from './index.js';
import { CODEPAGES } from '../codepage/index.js';

const dir = new URL('../../../test/fixtures/receipts/', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();
const corpus = files.map((file) => {
  const r = validateReceiptDocument(JSON.parse(readFileSync(new URL(file, dir), 'utf8')));
  assert.ok(r.ok, `${file}: ${r.ok ? '' : r.issues.map((i) => i.message).join('; ')}`);
  return { file, doc: r.document };
});

test('the receipt corpus has at least 10 documents named NN-description.json', () => {
  assert.ok(files.length >= 10);
  for (const f of files) assert.match(f, /^\d\d-[a-z0-9-]+\.json$/);
});

test('the corpus covers every block type and option, both papers and all six codepages', () => {
  const seen = new Set<string>();
  for (const { doc } of corpus) {
    seen.add(`width:${doc.width}`);
    seen.add(`codepage:${doc.codepage}`);
    for (const block of doc.blocks) {
      seen.add(block.type);
      for (const [key, value] of Object.entries(block)) {
        if (key === 'type' || key === 'value' || key === 'left' || key === 'right') continue;
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
          if (
            key !== 'src' &&
            key !== 'data' &&
            key !== 'width' &&
            key !== 'height' &&
            key !== 'lines'
          ) {
            seen.add(`${block.type}.${key}:${String(value)}`);
          }
        }
      }
      if (block.type === 'image') seen.add(`image.src:${block.src.slice(0, 5)}`);
      if (block.type === 'text' && block.size > 1) seen.add('text.size>1');
    }
  }
  const required = [
    'width:58mm',
    'width:80mm',
    ...CODEPAGES.map((c) => `codepage:${c}`),
    ...['text', 'line', 'pair', 'table', 'qr', 'barcode', 'image', 'feed', 'cut', 'drawer', 'raw'],
    ...['left', 'center', 'right'].map((a) => `text.align:${a}`),
    'text.bold:true',
    'text.underline:true',
    'text.invert:true',
    'text.font:b',
    'text.size>1',
    'text.size:8',
    ...['solid', 'dashed', 'double'].map((s) => `line.style:${s}`),
    'pair.bold:true',
    'table.bold:true',
    ...['L', 'M', 'Q', 'H'].map((l) => `qr.errorLevel:${l}`),
    ...['left', 'center', 'right'].map((a) => `qr.align:${a}`),
    ...['CODE128', 'EAN13', 'EAN8', 'UPC-A', 'CODE39', 'ITF'].map((f) => `barcode.format:${f}`),
    ...['none', 'above', 'below', 'both'].map((h) => `barcode.hri:${h}`),
    'image.dithering:floyd-steinberg',
    'image.dithering:threshold',
    ...['left', 'center', 'right'].map((a) => `image.align:${a}`),
    'image.src:https',
    'image.src:data:',
    'cut.mode:full',
    'cut.mode:partial',
    'drawer.pin:2',
    'drawer.pin:5',
  ];
  const missing = required.filter((r) => !seen.has(r));
  assert.deepEqual(missing, []);
});

test('every corpus receipt encodes on its paper; only unfetched image URLs warn', () => {
  for (const { file, doc } of corpus) {
    const profile = doc.width === '58mm' ? 'generic-58mm' : 'generic-80mm';
    const r = encodeReceiptWithReport(doc satisfies ReceiptDocument, profile);
    assert.ok(r.bytes.length > 100, file);
    assert.equal(r.codepage, doc.codepage, file);
    for (const w of r.warnings)
      assert.match(w, /was not fetched; a crossed box stands in for it/, file);
  }
});

test('the corpus text exercises transliteration in the codepages that need it', () => {
  const changed = new Set<string>();
  for (const { doc } of corpus) {
    const profile = doc.width === '58mm' ? 'generic-58mm' : 'generic-80mm';
    for (const s of encodeReceiptWithReport(doc, profile).substitutions)
      changed.add(`${s.codepage}:${s.char}`);
  }
  // A few that must be there: CP850 has no euro, CP866 no ruble sign, CP858 no Cyrillic.
  for (const expected of ['CP850:€', 'CP866:₽', 'CP858:К', 'CP437:“', 'ISO-8859-15:−']) {
    assert.ok(changed.has(expected), expected);
  }
});
