/**
 * Writes a PNG preview of each gallery receipt, printed by the virtual printer from the bytes the
 * agent would send, and of each gallery label (ZPL, EPL), drawn by the label renderer at 203 dpi
 * on the template's label size where the label does not size itself:
 * `node --import tsx shared/src/gallery/previews.ts [outDir]` (default `docs/templates`).
 * docs/templates.md shows them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderEscposToPng } from '../escpos/index.js';
import { renderLabel } from '../label/index.js';
import { parseLabelSize } from '../label-graphics/label-size.js';
import { encodeReceipt } from '../receipt/index.js';
import { renderReceiptDocument, renderTemplate } from '../template/index.js';
import { gallery } from './index.js';

const outDir = process.argv[2] ?? 'docs/templates';
mkdirSync(outDir, { recursive: true });
for (const t of gallery.filter((g) => g.type === 'receipt')) {
  const paper = t.paper === '58mm' ? '58mm' : '80mm';
  const bytes = encodeReceipt(renderReceiptDocument(t.content, t.sampleData), `generic-${paper}`);
  const file = join(outDir, `${t.id}.png`);
  writeFileSync(file, await renderEscposToPng(bytes, { paper }));
  console.log(file);
}

for (const t of gallery.filter((g) => g.type === 'zpl' || g.type === 'epl')) {
  const language = t.type as 'zpl' | 'epl';
  const content = renderTemplate(t.content, t.sampleData, language);
  const size = parseLabelSize(t.paper ?? '4x6in');
  const own =
    language === 'zpl'
      ? { width: /\^PW\d/.test(content), length: /\^LL\d/.test(content) }
      : { width: /^q\d/m.test(content), length: /^Q\d/m.test(content) };
  const drawn = renderLabel(content, {
    language,
    ...(own.width ? {} : { widthMm: size.widthMm }),
    ...(own.length ? {} : { heightMm: size.heightMm }),
  });
  const file = join(outDir, `${t.id}.png`);
  writeFileSync(file, drawn.png);
  const notDrawn = drawn.skipped.length > 0 ? `; not drawn: ${drawn.skipped.join(' ')}` : '';
  console.log(`${file} (${drawn.width} × ${drawn.height} dots${notDrawn})`);
}
