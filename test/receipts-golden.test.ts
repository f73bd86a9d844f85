/**
 * The receipt corpus, end to end through the shared engine: each document of
 * `fixtures/receipts/*.json` is encoded for its paper's generic profile and printed by the virtual
 * printer, and the picture must match `fixtures/receipts/*.png` dot for dot. These are the very
 * bytes the agent sends, so a change here is a change of what customers' printers print. Record
 * a deliberate change with `UPDATE_GOLDEN=1 npm test -- test/receipts-golden` and look at the
 * pictures before committing them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { encodeReceiptWithReport, renderEscposToPng } from '@printwire/shared';

const dir = fileURLToPath(new URL('./fixtures/receipts/', import.meta.url));
const documents = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

function decode(png: Buffer): PNG {
  return PNG.sync.read(png);
}

/** Rows of the picture that differ, to say where two pictures part. */
function differingRows(a: PNG, b: PNG): number[] {
  const rows: number[] = [];
  const rowBytes = a.width * 4;
  for (let y = 0; y < Math.min(a.height, b.height); y++) {
    const start = y * rowBytes;
    if (
      !a.data.subarray(start, start + rowBytes).equals(b.data.subarray(start, start + rowBytes))
    ) {
      rows.push(y);
    }
  }
  return rows;
}

describe('the receipt corpus prints as its golden pictures', () => {
  test('the corpus has at least 10 receipts, each with its picture', () => {
    assert.ok(documents.length >= 10, `only ${documents.length} receipts in the corpus`);
    if (process.env.UPDATE_GOLDEN) return;
    for (const file of documents) {
      assert.ok(existsSync(dir + file.replace(/\.json$/, '.png')), `${file} has no golden PNG`);
    }
  });

  for (const file of documents) {
    test(`${file} prints dot for dot as recorded`, async () => {
      const document = JSON.parse(readFileSync(dir + file, 'utf8')) as { width?: string };
      const paper = document.width === '58mm' ? '58mm' : '80mm';
      const { bytes, paper: printedOn } = encodeReceiptWithReport(document, `generic-${paper}`);
      assert.equal(printedOn, paper);
      const png = await renderEscposToPng(bytes, { paper });
      const goldenPath = dir + file.replace(/\.json$/, '.png');
      if (process.env.UPDATE_GOLDEN) {
        writeFileSync(goldenPath, png);
        return;
      }
      const actual = decode(png);
      const golden = decode(readFileSync(goldenPath));
      assert.equal(actual.width, paper === '58mm' ? 384 : 576, 'the paper width in dots');
      assert.equal(actual.width, golden.width);
      assert.equal(actual.height, golden.height, 'the receipt is as long as recorded');
      const rows = differingRows(actual, golden);
      assert.deepEqual(rows.slice(0, 10), [], `${rows.length} rows differ, from row ${rows[0]}`);
    });
  }
});
