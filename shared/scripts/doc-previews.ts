/**
 * Draws the preview pictures of docs/receipts.md: for every `![preview](receipts/NAME.png)` line,
 * the JSON example just above it is encoded with the receipt engine and printed by the virtual
 * printer, exactly as the sandbox does. Run after changing an example or the rendering:
 * `node --import tsx shared/scripts/doc-previews.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { renderEscposToPng } from '../src/escpos/index.js';
import { encodeReceiptWithReport } from '../src/receipt/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const docPath = join(root, 'docs/receipts.md');
const lines = readFileSync(docPath, 'utf8').split('\n');

/** A small picture for the image example, whose base64 the page shortens. */
function sampleImage(): string {
  const size = 96;
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - size / 2, y - size / 2) / (size / 2);
      const v = d > 1 ? 255 : Math.round(255 * d * d);
      const i = (y * size + x) * 4;
      png.data[i] = v;
      png.data[i + 1] = v;
      png.data[i + 2] = v;
      png.data[i + 3] = 255;
    }
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

type Json = Record<string, unknown>;

function documentFor(example: unknown): Json {
  if (example && typeof example === 'object' && 'blocks' in example) return example as Json;
  const blocks = (Array.isArray(example) ? example : [example]) as Json[];
  for (const block of blocks) {
    if (block.type === 'image' && String(block.src).includes('…')) block.src = sampleImage();
  }
  // Blocks that print nothing themselves are shown between two lines of text.
  if (blocks.every((b) => ['feed', 'cut', 'drawer', 'raw'].includes(String(b.type)))) {
    return {
      blocks: [{ type: 'text', value: 'before' }, ...blocks, { type: 'text', value: 'after' }],
    };
  }
  return { blocks };
}

let lastJson: string | undefined;
for (let i = 0; i < lines.length; i++) {
  const line = lines[i]!;
  if (line.startsWith('```json')) {
    const end = lines.indexOf('```', i + 1);
    lastJson = lines.slice(i + 1, end).join('\n');
    i = end;
    continue;
  }
  const m = /^!\[preview\]\(receipts\/([\w-]+\.png)\)$/.exec(line);
  if (!m || lastJson === undefined) continue;
  const document = documentFor(JSON.parse(lastJson));
  const paper = document.width === '58mm' ? '58mm' : '80mm';
  const { bytes, warnings } = encodeReceiptWithReport(document, `generic-${paper}`);
  const file = join(root, 'docs/receipts', m[1]!);
  writeFileSync(file, await renderEscposToPng(bytes, { paper }));
  console.log(`${file}${warnings.length ? `  (warnings: ${warnings.join('; ')})` : ''}`);
}
