/**
 * A one-page PDF shipping label (4 × 6 in) to the ZPL a 203 dpi label printer receives:
 * Printwire's pdf.js page drawn at the label's dots, dithered where it has grey, as `^GF` in
 * Zebra's ASCII compression, against poppler's pdftoppm drawing the page (a process a page, as
 * most label tools do) and a plain hex `^GF` of it. Target: under 150 ms a label (median).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  labelBitmap,
  zplGraphicField,
  zplPictureLabels,
} from '@printwire/shared/label-graphics/index';
import { pngGray } from '@printwire/shared/testing/label-graphics';
import { pdfOnLabels, renderDocumentForLabel } from '@printwire/agent';
import { fmt, latencies, percentile, report } from './lib.js';

const run = promisify(execFile);
const pdf = readFileSync(
  new URL('../agent/src/render/fixtures/shipping-label-4x6.pdf', import.meta.url),
);
const paper = { language: 'zpl', size: '4x6in', dpi: 203 } as const;
const work = mkdtempSync(join(tmpdir(), 'pw-bench-labels-'));
writeFileSync(join(work, 'label.pdf'), pdf);

/** pdftoppm's page at 203 dpi in grey, thresholded, as a plain hex `^GF`. */
async function pdftoppmHex(): Promise<string> {
  await run('pdftoppm', [
    '-r',
    '203',
    '-gray',
    '-png',
    '-singlefile',
    join(work, 'label.pdf'),
    join(work, 'page'),
  ]);
  const page = pngGray(readFileSync(join(work, 'page.png')));
  const rowBytes = (page.width + 7) >> 3;
  const data = new Uint8Array(rowBytes * page.height);
  for (let y = 0; y < page.height; y++) {
    for (let x = 0; x < page.width; x++) {
      if (page.pixels[y * page.width + x]! < 128) data[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const bitmap = { width: page.width, height: page.height, rowBytes, data };
  return `^XA^FO0,0${zplGraphicField(bitmap, 'hex')}^FS^XZ`;
}

try {
  const ours = await latencies(() => renderDocumentForLabel('pdf', pdf, paper), 40, 5);
  const baseline = await latencies(pdftoppmHex, 20, 3);
  const p50 = percentile(ours, 50);
  report({
    name: 'one-page PDF label to ^GF, 4 × 6 in at 203 dpi (p50)',
    value: p50,
    unit: 'ms',
    baseline: 'pdftoppm + plain hex ^GF',
    baselineValue: percentile(baseline, 50),
    higherIsBetter: false,
  });
  const sent = await renderDocumentForLabel('pdf', pdf, paper);
  const [page] = await pdfOnLabels(pdf, { width: 812, height: 1218 });
  const bitmap = labelBitmap(page!);
  const z64 = zplPictureLabels([bitmap], { compression: 'z64' }).length;
  const hex = zplPictureLabels([bitmap], { compression: 'hex' }).length;
  console.log(
    `  p95 ${fmt(percentile(ours, 95))} ms; under 150 ms: ${p50 < 150 ? 'met' : 'NOT met'}. ` +
      `Bytes sent: ASCII compression ${sent.length}, Z64 ${z64}, plain hex ${hex}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
