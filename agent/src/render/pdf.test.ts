import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PrintwireError } from '@printwire/shared/errors/index';
import { interpretEscpos, type PrintedPage } from '@printwire/shared/escpos/index';
import { PDF_LIMITS, rasterizePdf, renderPdfForThermal } from './pdf.js';

/** 288 × 144 pt (4 × 2 in), a black rectangle from (36, 36) to (180, 108) pt, origin bottom left. */
const RECTANGLE = readFileSync(new URL('./fixtures/rectangle.pdf', import.meta.url));

/** Share of black dots in a box of the printed page. */
function blackShare(page: PrintedPage, x0: number, y0: number, x1: number, y1: number): number {
  let black = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) black += page.pixels[y * page.width + x]!;
  }
  return black / ((x1 - x0) * (y1 - y0));
}

/** The same one-page PDF with `pages` copies of the page. */
function pdfWithPages(pages: number): Buffer {
  const content = '0 0 0 rg\n36 36 144 72 re f\n';
  const kids = Array.from({ length: pages }, (_, i) => `${i + 4} 0 R`).join(' ');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    `<< /Length ${content.length} >>\nstream\n${content}endstream`,
    ...Array.from(
      { length: pages },
      () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 288 144] /Contents 3 0 R >>',
    ),
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

describe('PDF on a thermal printer', () => {
  test('a page becomes raster at 576 dots and the virtual printer shows its black rectangle', async () => {
    const bytes = await renderPdfForThermal(RECTANGLE, { paper: '80mm' });
    const page = interpretEscpos(bytes, { paper: '80mm' });
    assert.deepEqual(page.warnings, []);
    const raster = page.graphics.filter((g) => g.kind === 'raster');
    assert.ok(raster.length >= 1);
    const top = raster[0]!.y;
    // 2 dots a point: the rectangle spans x 72-360 and y 72-216 of the page.
    assert.ok(blackShare(page, 76, top + 76, 356, top + 212) > 0.99, 'inside is black');
    assert.ok(blackShare(page, 0, top, 68, top + 288) < 0.01, 'left of it is white');
    assert.ok(blackShare(page, 364, top, 576, top + 288) < 0.01, 'right of it is white');
    assert.ok(blackShare(page, 72, top, 360, top + 68) < 0.01, 'above it is white');
    assert.equal(page.cuts.length, 1);
  });

  test('on 58 mm paper the page is scaled to 384 dots', async () => {
    const [gray] = await rasterizePdf(RECTANGLE, 384);
    assert.equal(gray?.width, 384);
    assert.equal(gray?.height, 192);
    const page = interpretEscpos(await renderPdfForThermal(RECTANGLE, { paper: '58mm' }), {
      paper: '58mm',
    });
    const top = page.graphics[0]!.y;
    // 4/3 dots a point: the rectangle spans x 48-240, y 48-144.
    assert.ok(blackShare(page, 52, top + 52, 236, top + 140) > 0.99);
    assert.ok(blackShare(page, 250, top, 384, top + 192) < 0.01);
  });

  test('each page is printed, one after the other, and copies repeat the job', async () => {
    const two = interpretEscpos(await renderPdfForThermal(pdfWithPages(2), { paper: '80mm' }), {
      paper: '80mm',
    });
    const heights = two.graphics.reduce((sum, g) => sum + g.height, 0);
    assert.equal(heights, 2 * 288);
    const copies = interpretEscpos(
      await renderPdfForThermal(RECTANGLE, { paper: '80mm', copies: 2 }),
      { paper: '80mm' },
    );
    assert.equal(copies.cuts.length, 2);
  });

  test('the page limit is enforced at its edge', async () => {
    assert.equal((await rasterizePdf(pdfWithPages(3), 96, { maxPages: 3 })).length, 3);
    await assert.rejects(rasterizePdf(pdfWithPages(4), 96, { maxPages: 3 }), (e: unknown) => {
      assert.ok(e instanceof PrintwireError);
      assert.equal(e.code, 'INVALID_JOB');
      assert.match(e.message, /4 pages; at most 3/);
      return true;
    });
    assert.equal(PDF_LIMITS.maxPages, 50);
  });

  test('the page length limit is enforced at its edge', async () => {
    // 144 pt high on a 96-dot line: 48 dots.
    assert.equal((await rasterizePdf(RECTANGLE, 96, { maxPageHeightDots: 48 }))[0]?.height, 48);
    await assert.rejects(rasterizePdf(RECTANGLE, 96, { maxPageHeightDots: 47 }), /at most 47/);
  });

  test('bytes that are not a PDF fail with INVALID_JOB', async () => {
    await assert.rejects(
      renderPdfForThermal(Buffer.from('hello'), { paper: '80mm' }),
      (e: unknown) => {
        assert.ok(e instanceof PrintwireError);
        assert.equal(e.code, 'INVALID_JOB');
        return true;
      },
    );
  });
});
