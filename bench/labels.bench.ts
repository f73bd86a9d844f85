/**
 * `npm run bench -- labels`: the label renderer on a 4 x 6 in shipping label at 8 dots/mm
 * (the gallery's shipping template, a new tracking number each time so no encoded symbol is
 * reused), against bwip-js drawing the same two barcodes (Code 128 and QR) to PNG alone, in the
 * same run. Target: median under 10 ms. Also reported: the UPS-style corpus label, whose MaxiCode
 * bwip-js encodes in most of the time, fresh and again (a ^PQ batch or a zoomed preview reuses
 * the encoded symbol).
 */
import { readFileSync } from 'node:fs';
import bwipjs from 'bwip-js';
import { gallery, renderLabel, renderTemplate } from '@printwire/shared';
import { fmt, latencies, percentile, report } from './lib.js';

const template = gallery.find((g) => g.id === 'label-shipping-4x6');
if (!template) throw new Error('the gallery has no label-shipping-4x6 template');

let serial = 100_000;
/** The shipping label with a tracking number never seen before. */
function nextLabel(): { zpl: string; tracking: string } {
  const tracking = `1Z999AA1${String(serial++).padStart(10, '0')}`;
  const data = { ...(template!.sampleData as Record<string, unknown>), tracking };
  return { zpl: renderTemplate(template!.content, data, 'zpl'), tracking };
}

const ours = await latencies(() => renderLabel(nextLabel().zpl, { dpmm: 8 }), 300);
const baseline = await latencies(async () => {
  const { tracking } = nextLabel();
  await bwipjs.toBuffer({ bcid: 'code128', text: tracking, scale: 3, height: 25 });
  await bwipjs.toBuffer({ bcid: 'qrcode', text: tracking, scale: 6 });
}, 300);

const p50 = percentile(ours, 50);
report({
  name: '4 x 6 in shipping label at 8 dots/mm, ZPL → PNG (p50)',
  value: p50,
  unit: 'ms',
  baseline: 'bwip-js drawing its two barcodes to PNG alone',
  baselineValue: percentile(baseline, 50),
  higherIsBetter: false,
});
console.log(
  `  Printwire p95 ${fmt(percentile(ours, 95))} ms; under 10 ms median: ${p50 < 10 ? 'met' : 'NOT met'}`,
);

const ups = readFileSync(
  new URL('../shared/src/label/fixtures/ups-ground.zpl', import.meta.url),
  'latin1',
);
let n = 0;
const fresh = await latencies(
  () =>
    renderLabel(
      ups
        .replace('1Z9999990398765432', `1Z99999903${String(n++).padStart(8, '0')}`)
        .replace('1Z99999999', `1Z${String(n).padStart(8, '0')}`),
    ),
  60,
  5,
);
const again = await latencies(() => renderLabel(ups), 200);
console.log(
  `UPS-style label with MaxiCode: p50 ${fmt(percentile(fresh, 50))} ms with new data each time ` +
    `(bwip-js encoding the MaxiCode is most of it), ${fmt(percentile(again, 50))} ms for the same label again`,
);
