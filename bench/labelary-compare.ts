/**
 * `node --import tsx bench/labelary-compare.ts <dir> [<dir>…]` (or `npm run labels:compare --
 * <dir>`): our ZPL renderer against reference renders of Labelary. Each `name.zpl` of a directory
 * that has a `name.png` next to it is drawn at 8 dots/mm on the reference's size and compared
 * pixel by pixel (a pixel differs when a channel differs by more than 32 of 255, the rule of the
 * Labelize project, so the numbers compare with theirs), and read as printed (black or white,
 * black when darker than half grey: Labelary smooths text with grey pixels that a printer's dots,
 * and our 1-bit pictures, cannot match under the channel rule). Prints both shares of differing
 * pixels per label, then per directory and measure the median, how many labels are under 1 % and
 * how many at 10 % or more; writes for each label ours, the reference and a diff picture (red: ink only Labelary
 * has, blue: ink only we have) to a temporary directory (or `--out <dir>`).
 *
 * The references are not in this repository (third-party files): see docs/labels.md, "Measured
 * against Labelary", for where they come from.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { renderLabel } from '@printwire/shared';
import { compareLabels, readRgba, writeRgba } from '@printwire/shared/testing/label-compare';

const args = process.argv.slice(2);
let out: string | undefined;
const dirs: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--out') out = args[++i];
  else dirs.push(args[i]!);
}
if (dirs.length === 0) {
  console.error(
    'usage: node --import tsx bench/labelary-compare.ts [--out <dir>] <dir-with-zpl-and-png-pairs>…',
  );
  process.exit(2);
}
out ??= mkdtempSync(join(tmpdir(), 'labelary-compare-'));
mkdirSync(out, { recursive: true });

/** 8 dots/mm as our renderer counts a millimetre (203 dots per inch). */
const DOTS_PER_INCH = 203;
const mmFor = (dots: number) => (dots * 25.4) / DOTS_PER_INCH;

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

let failed = false;
for (const dir of dirs) {
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.zpl'))
    .map((f) => basename(f, '.zpl'))
    .filter((n) => readdirSync(dir).includes(`${n}.png`))
    .sort();
  if (names.length === 0) {
    console.error(`${dir}: no name.zpl with a name.png next to it`);
    failed = true;
    continue;
  }
  const target = join(out, basename(dir));
  mkdirSync(target, { recursive: true });
  console.log(`\n${dir} (${names.length} labels)\n  Labelize   as printed`);
  const percents: number[] = [];
  const printed: number[] = [];
  for (const name of names) {
    const expected = readRgba(readFileSync(join(dir, `${name}.png`)));
    let line: string;
    try {
      const rendered = renderLabel(readFileSync(join(dir, `${name}.zpl`)), {
        dpmm: 8,
        widthMm: mmFor(expected.width),
        heightMm: mmFor(expected.height),
      });
      const ours = readRgba(rendered.png);
      const result = compareLabels(ours, expected);
      percents.push(result.percent);
      printed.push(result.percentAsPrinted);
      writeFileSync(join(target, `${name}.ours.png`), rendered.png);
      writeFileSync(join(target, `${name}.labelary.png`), readFileSync(join(dir, `${name}.png`)));
      writeFileSync(join(target, `${name}.diff.png`), writeRgba(result.diff));
      const notes = rendered.skipped.length > 0 ? `  skipped ${rendered.skipped.join(' ')}` : '';
      line = `${result.percent.toFixed(2).padStart(6)} %  ${result.percentAsPrinted.toFixed(2).padStart(6)} %  ${name}${notes}`;
    } catch (error) {
      percents.push(100);
      printed.push(100);
      line = `   n/a       n/a     ${name}: ${(error as Error).message}`;
    }
    console.log(`  ${line}`);
  }
  for (const [what, values] of [
    ['the Labelize rule', percents],
    ['as printed', printed],
  ] as const) {
    const under1 = values.filter((p) => p < 1).length;
    const over10 = values.filter((p) => p >= 10).length;
    console.log(
      `  ${what}: median ${median(values).toFixed(2)} %, under 1 %: ${under1} of ${values.length}, 10 % or more: ${over10}`,
    );
  }
}
console.log(`\nours, the reference and the diff of each label: ${out}`);
if (failed) process.exit(1);
