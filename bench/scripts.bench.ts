/**
 * Receipts in other scripts: ten lines (Arabic, Hebrew, Thai, Devanagari, Greek, Chinese,
 * Japanese, Korean, a mixed pair and a mixed table row) encoded by Printwire, drawn from the
 * shipped fonts and sent as GS v 0, against what the field does today: the same lines as HTML,
 * drawn by Chromium (Debian's, through playwright-core) with the same fonts and screenshotted.
 * Target: at least 10x faster. The first such receipt after start (the HarfBuzz WebAssembly and
 * the fonts read) is reported apart.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { fmt, latencies, percentile, report } from './lib.js';

const LINES: { value: string; font: string }[] = [
  { value: 'مرحبا بكم في المتجر', font: 'NotoSansArabic' },
  { value: 'שלום עולם, תודה רבה', font: 'NotoSansHebrew' },
  { value: 'สวัสดีครับ ขอบคุณที่มาใช้บริการ', font: 'NotoSansThai' },
  { value: 'नमस्ते आपका स्वागत है', font: 'NotoSansDevanagari' },
  { value: 'Καλημέρα σας, ευχαριστούμε', font: 'NotoSans' },
  { value: '欢迎光临本店，谢谢惠顾', font: 'NotoSansSC' },
  { value: 'いらっしゃいませ、東京店へ', font: 'NotoSansJP' },
  { value: '안녕하세요 환영합니다', font: 'NotoSansKR' },
  { value: 'قهوة بالحليب 12.50', font: 'NotoSansArabic' },
  { value: '拿铁咖啡 大杯 3.00', font: 'NotoSansSC' },
];

const receipt = { blocks: LINES.map(({ value }) => ({ type: 'text', value })) };

// First receipt after start: load the engine (HarfBuzz's WebAssembly), then encode (fonts read).
const t0 = performance.now();
const { encodeReceipt } = await import('@printwire/shared');
const loaded = performance.now();
encodeReceipt(receipt, 'generic-80mm');
const first = performance.now();

const ours = await latencies(() => encodeReceipt(receipt, 'generic-80mm'), 100, 10);

const fontDir = fileURLToPath(new URL('../shared/fonts/scripts/', import.meta.url));
const faces = [...new Set(LINES.map((l) => l.font))]
  .map((f) => `@font-face { font-family: ${f}; src: url("file://${fontDir}${f}-Regular.ttf"); }`)
  .join('\n');
const html = `<!doctype html><meta charset="utf-8"><style>${faces}
body { margin: 0; width: 576px; background: #fff; color: #000; font-size: 24px; line-height: 30px; }
p { margin: 0; white-space: pre-wrap; }
</style><body>${LINES.map((l) => `<p dir="auto" style="font-family: ${l.font}">${l.value}</p>`).join('')}</body>`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
  ],
});
const page = await browser.newPage({ viewport: { width: 576, height: 400 } });
await page.goto(`file://${fontDir}`); // a file: origin, so that the fonts load from the disk
const chromiumDraw = async () => {
  await page.setContent(html);
  await page.evaluate('document.fonts.ready.then(() => true)');
  return page.screenshot({ fullPage: true, type: 'png' });
};
const baseline = await latencies(chromiumDraw, 20, 3);
await browser.close();

report({
  name: 'ten lines in other scripts, encoded (p50)',
  value: percentile(ours, 50),
  unit: 'ms',
  baseline: 'Chromium: the lines as HTML, screenshotted',
  baselineValue: percentile(baseline, 50),
  higherIsBetter: false,
  target: 10,
});
console.log(
  `  Printwire p95 ${fmt(percentile(ours, 95))} ms; Chromium p95 ${fmt(percentile(baseline, 95))} ms`,
);
console.log(
  `  first receipt after start: ${fmt(loaded - t0)} ms to load the engine (HarfBuzz WebAssembly), ` +
    `${fmt(first - loaded)} ms for the first receipt (its fonts read), then p50 ${fmt(percentile(ours, 50))} ms`,
);
