/**
 * Writes a PNG preview of each gallery receipt, printed by the virtual printer from the bytes the
 * agent would send: `node --import tsx shared/src/gallery/previews.ts [outDir]` (default
 * `docs/templates`). docs/templates.md shows them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderEscposToPng } from '../escpos/index.js';
import { encodeReceipt } from '../receipt/index.js';
import { renderReceiptDocument } from '../template/index.js';
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
