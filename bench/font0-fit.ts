/**
 * `node --import tsx bench/font0-fit.ts [--write] <dir>…`: measures font 0 on reference renders
 * of Labelary (each `name.zpl` with its `name.png`, as for `bench/labelary-compare.ts`) and
 * prints, per character, the advance, ink offset and ink width that `shared/src/label/
 * font0-metrics.ts` holds; `--write` writes that file.
 *
 * How: every upright line of font 0 is drawn as the renderer draws it today; the line is placed
 * on the reference where its ink matches best (±8 dots across, ±4 down), then each glyph alone
 * (±15 % of the width). The distance between two matched glyphs is the sum of the advances
 * between them plus the difference of the two characters' offsets: least squares over all such
 * pairs (robust: pairs more than 4 median deviations off are dropped, six rounds) gives each
 * character's advance and offset in shares of the field's width. The ink width is the median,
 * over glyphs at least 16 dots wide, of the reference's ink columns around the glyph less ours.
 * Labelary's picture is read as a printer prints it: a dot is black when darker than half grey.
 * Run it again after a change of font 0's face or placement; the second run starts from the
 * first's table (offsets and ink widths are measured against the glyphs as drawn, and added to
 * what the table holds).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { renderLabel } from '@printwire/shared';
import { readRgba } from '@printwire/shared/testing/label-compare';
import { FONT0_METRICS } from '@printwire/shared/label/font0-metrics';
import type { PlacedGlyph } from '@printwire/shared/label/fonts';
import { textProbe } from '@printwire/shared/label/zpl/render';

const args = process.argv.slice(2);
const write = args.includes('--write');
const dirs = args.filter((a) => a !== '--write');
if (dirs.length === 0) {
  console.error('usage: node --import tsx bench/font0-fit.ts [--write] <dir-with-zpl-and-png>…');
  process.exit(2);
}

const mmFor = (dots: number) => (dots * 25.4) / 203;
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;

/** Two matched glyphs of one line: the characters from the first up to (not with) the second. */
interface Pair {
  between: string[];
  first: string;
  last: string;
  /** Distance between the two, in shares of the field width. */
  share: number;
}
const pairs: Pair[] = [];
const inkWidths = new Map<string, number[]>();
let lines = 0;
let matched = 0;

for (const dir of dirs) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.zpl'))) {
    const name = basename(file, '.zpl');
    let png: Buffer;
    try {
      png = readFileSync(join(dir, `${name}.png`));
    } catch {
      continue;
    }
    const content = readFileSync(join(dir, file));
    // Turned or mirrored labels move every line: leave them out.
    if (/\^PO\s*I|\^PM\s*Y/i.test(content.toString('latin1'))) continue;
    const ref = readRgba(png);
    const ink = (x: number, y: number): number => {
      if (x < 0 || y < 0 || x >= ref.width || y >= ref.height) return 0;
      const i = (y * ref.width + x) * 4;
      return ref.data[i + 3]! > 127 && ref.data[i]! + ref.data[i + 1]! + ref.data[i + 2]! < 384
        ? 1
        : 0;
    };
    const found: Parameters<NonNullable<typeof textProbe.line>>[0][] = [];
    textProbe.line = (line) => found.push(line);
    try {
      renderLabel(content, { dpmm: 8, widthMm: mmFor(ref.width), heightMm: mmFor(ref.height) });
    } catch {
      continue;
    } finally {
      textProbe.line = undefined;
    }
    for (const { x, y, font, drawn } of found) {
      lines++;
      const glyphs = drawn.glyphs!;
      const width = Math.max(1, Math.round(font.width || font.height));
      /** Ink of a glyph over the reference's ink (+1 each dot that agrees, -1 each that does not). */
      const score = (g: PlacedGlyph, dx: number, dy: number): number => {
        let s = 0;
        for (let gy = 0; gy < g.bitmap.height; gy++)
          for (let gx = 0; gx < g.bitmap.width; gx++)
            if (g.bitmap.get(gx, gy)) s += ink(x + g.x + gx + dx, y + g.y + gy + dy) ? 1 : -1;
        return s;
      };
      const dots = glyphs.map((g) => g.bitmap.data.reduce((a, b) => a + b, 0));
      const total = dots.reduce((a, b) => a + b, 0);
      let line = { s: -Infinity, dx: 0, dy: 0 };
      for (let dy = -4; dy <= 4; dy++)
        for (let dx = -8; dx <= 8; dx++) {
          const s = glyphs.reduce((a, g) => a + score(g, dx, dy), 0);
          if (s > line.s) line = { s, dx, dy };
        }
      if (total === 0 || line.s < total * 0.3) continue;
      matched++;
      const reach = Math.max(3, Math.round(width * 0.15));
      let previous: { index: number; at: number } | undefined;
      glyphs.forEach((g, i) => {
        if (dots[i]! < 6) return;
        let best = { s: -Infinity, d: 0 };
        for (let d = -reach; d <= reach; d++) {
          const s = score(g, line.dx + d, line.dy);
          if (s > best.s) best = { s, d };
        }
        if (best.s < dots[i]! * 0.5) return;
        const at = g.pen + line.dx + best.d;
        if (previous && i - previous.index <= 3) {
          pairs.push({
            between: glyphs.slice(previous.index, i).map((p) => p.char),
            first: glyphs[previous.index]!.char,
            last: g.char,
            share: (at - previous.at) / width,
          });
        }
        previous = { index: i, at };
        if (width >= 16) {
          const inkWidth = referenceInkWidth(g, x + g.x + line.dx + best.d, y + g.y + line.dy);
          if (inkWidth !== undefined) {
            const list = inkWidths.get(g.char) ?? [];
            list.push((inkWidth - ownInkWidth(g)) / width);
            inkWidths.set(g.char, list);
          }
        }
      });
    }

    /** The reference's ink columns around a glyph's middle, within its rows (undefined: it runs into a neighbour). */
    function referenceInkWidth(g: PlacedGlyph, left: number, top: number): number | undefined {
      const column = (cx: number) => {
        for (let gy = 0; gy < g.bitmap.height; gy++) if (ink(cx, top + gy)) return true;
        return false;
      };
      const middle = left + (g.bitmap.width >> 1);
      if (!column(middle) && !column(middle - 1) && !column(middle + 1)) return undefined;
      let from = middle;
      while (from > left - 4 && column(from - 1)) from--;
      let to = middle;
      while (to < left + g.bitmap.width + 4 && column(to + 1)) to++;
      if (from <= left - 4 || to >= left + g.bitmap.width + 4) return undefined;
      return to - from + 1;
    }
  }
}

function ownInkWidth(g: PlacedGlyph): number {
  let from = g.bitmap.width;
  let to = -1;
  for (let gy = 0; gy < g.bitmap.height; gy++)
    for (let gx = 0; gx < g.bitmap.width; gx++)
      if (g.bitmap.get(gx, gy)) {
        from = Math.min(from, gx);
        to = Math.max(to, gx);
      }
  return to - from + 1;
}

// Least squares over the pairs: unknowns are each character's advance, then its offset.
const chars = [...new Set(pairs.flatMap((p) => [...p.between, p.last]))].sort();
const n = chars.length;
const index = new Map(chars.map((c, i) => [c, i]));
const rows = pairs.map((p) => {
  const terms = new Map<number, number>();
  const add = (k: number, c: number) => terms.set(k, (terms.get(k) ?? 0) + c);
  for (const c of p.between) add(index.get(c)!, 1);
  add(n + index.get(p.last)!, 1);
  add(n + index.get(p.first)!, -1);
  return [...terms];
});
const x = new Float64Array(2 * n);
for (let i = 0; i < n; i++) x[i] = 0.45;
const uses: number[][] = Array.from({ length: 2 * n }, () => []);
rows.forEach((row, j) => row.forEach(([k]) => uses[k]!.push(j)));
const predicted = (j: number) => rows[j]!.reduce((s, [k, c]) => s + c * x[k]!, 0);
let kept = pairs.map(() => true);
/** Offsets are known only up to a common shift: a small pull towards 0 settles them. */
const OFFSET_PULL = 2;
for (let round = 0; round < 6; round++) {
  for (let sweep = 0; sweep < 150; sweep++) {
    for (let k = 0; k < 2 * n; k++) {
      let num = 0;
      let den = k >= n ? OFFSET_PULL : 0;
      for (const j of uses[k]!) {
        if (!kept[j]) continue;
        const c = rows[j]!.find(([kk]) => kk === k)![1];
        num += c * (pairs[j]!.share - (predicted(j) - c * x[k]!));
        den += c * c;
      }
      if (den > 0) x[k] = num / den;
    }
  }
  const residuals = pairs.map((p, j) => Math.abs(p.share - predicted(j)));
  const spread = median(residuals.filter((_, j) => kept[j]));
  kept = residuals.map((r) => r <= Math.max(0.02, 4 * spread));
}

const round3 = (v: number) => Math.round(v * 1000) / 1000 + 0; // + 0: no -0
const table: [string, number, number, number][] = [];
for (const c of chars) {
  const k = index.get(c)!;
  const seen = uses[k]!.filter((j) => kept[j]).length;
  if (seen < 3) continue;
  // Offsets and ink widths are measured against the glyphs as drawn now: add what is drawn now.
  const [, offsetNow, inkNow] = FONT0_METRICS[c] ?? [0, 0, 0];
  const widths = inkWidths.get(c) ?? [];
  const inkMore = widths.length >= 5 ? median(widths) : 0;
  table.push([c, round3(x[k]!), round3(offsetNow + x[n + k]!), round3(inkNow + inkMore)]);
}
console.log(
  `${matched} of ${lines} lines matched, ${pairs.length} pairs (${kept.filter(Boolean).length} kept), ${table.length} characters`,
);
const body = table.map(([c, a, o, w]) => `  ${JSON.stringify(c)}: [${a}, ${o}, ${w}],`).join('\n');
const source = `/**
 * Font 0 as Labelary draws it, per character, in shares of the field's width (\`^A0N,h,w\`'s w):
 * the advance, how far the ink sits right of where Roboto Condensed Bold (scaled to that advance)
 * puts it, and how much wider its ink is. Measured on Labelary's renders of 49 carrier labels
 * and 62 unit cases (9 to 355 dots high) by \`bench/font0-fit.ts\`, which writes this file; a
 * character seen fewer than 3 times is not listed and keeps Roboto's own shape and advance.
 */
export const FONT0_METRICS: Readonly<Record<string, readonly [number, number, number]>> = {
${body}
};
`;
if (write) {
  writeFileSync(new URL('../shared/src/label/font0-metrics.ts', import.meta.url), source);
  console.log('wrote shared/src/label/font0-metrics.ts');
} else console.log(source);
