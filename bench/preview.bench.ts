/**
 * Preview time of the standard receipt: Printwire's receipt encoder and virtual printer
 * (document → ESC/POS → PNG) against receiptline rendering the same receipt to SVG and sharp
 * turning that SVG into a PNG. Target: at least 3x faster and under 10 ms per receipt.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import receiptline from 'receiptline';
import { encodeReceipt, renderEscposToPng } from '@printwire/shared';
import { fmt, latencies, percentile, report } from './lib.js';

interface Block {
  type: string;
  [key: string]: unknown;
}

const document = JSON.parse(
  readFileSync(new URL('../../shared/bench/standard-receipt.json', import.meta.url), 'utf8'),
) as { blocks: Block[] };

/** receiptline's markup characters, escaped in text. */
const escape = (s: string) => s.replace(/[\\|{}_"`^~=-]/g, (c) => `\\${c}`);

/** The same receipt in receiptline's markdown (80 mm: 48 characters per line). */
function toReceiptline(blocks: Block[]): string {
  const lines: string[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case 'text': {
        const size = b.size === 2 ? '^^^' : '';
        const bold = b.bold ? '"' : '';
        const align = b.align === 'center' ? 'center' : b.align === 'right' ? 'right' : 'left';
        lines.push(`{align:${align}}`, `${bold}${size}${escape(String(b.value))}`);
        break;
      }
      case 'line':
        lines.push('-');
        break;
      case 'pair': {
        const bold = b.bold ? '"' : '';
        lines.push(`${bold}${escape(String(b.left))} | ${bold}${escape(String(b.right))}`);
        break;
      }
      case 'qr':
        lines.push(
          `{code:${b.value}; option:qrcode,${b.size},${String(b.errorLevel).toLowerCase()}}`,
        );
        break;
      case 'barcode':
        lines.push(`{code:${b.value}; option:code128,${b.width},${b.height},hri}`);
        break;
      case 'feed':
        for (let i = 0; i < Number(b.lines); i++) lines.push('');
        break;
      case 'cut':
        lines.push('=');
        break;
    }
  }
  return lines.join('\n');
}

const markdown = toReceiptline(document.blocks);

async function printwirePreview(): Promise<Buffer> {
  return renderEscposToPng(encodeReceipt(document, 'generic-80mm'), { paper: '80mm' });
}

async function receiptlinePreview(): Promise<Buffer> {
  const svg = receiptline.transform(markdown, { cpl: 48, encoding: 'cp437' }) as string;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const bytes = encodeReceipt(document, 'generic-80mm');
const ours = await latencies(printwirePreview, 300);
const renderOnly = await latencies(() => renderEscposToPng(bytes, { paper: '80mm' }), 300);
const baseline = await latencies(receiptlinePreview, 100);

const p50 = percentile(ours, 50);
report({
  name: 'preview of the standard receipt (p50)',
  value: p50,
  unit: 'ms',
  baseline: 'receiptline SVG + sharp PNG',
  baselineValue: percentile(baseline, 50),
  higherIsBetter: false,
  target: 3,
});
console.log(
  `  Printwire p95 ${fmt(percentile(ours, 95))} ms; virtual printer alone (ESC/POS → PNG) p50 ` +
    `${fmt(percentile(renderOnly, 50))} ms; under 10 ms: ${p50 < 10 ? 'met' : 'NOT met'}`,
);
