/**
 * Draws the desktop app's icons into installers/desktop/icons: the tray's, one colour per agent
 * state (agent/electron/tray-state.ts) at 16 and 32 px (@2x), and the app's at 512 px.
 *
 *   node --import tsx installers/desktop/scripts/make-icons.ts
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { TRAY_COLOURS } from '../../../agent/electron/tray-state.js';

const out = fileURLToPath(new URL('../icons/', import.meta.url));
mkdirSync(out, { recursive: true });

/** A receipt printer's outline on a disc of `colour`. */
function svg(size: number, colour: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">
  <circle cx="16" cy="16" r="15" fill="${colour}"/>
  <rect x="9" y="7" width="14" height="8" rx="1" fill="#fff"/>
  <rect x="7" y="14" width="18" height="8" rx="2" fill="#fff"/>
  <rect x="10" y="19" width="12" height="7" fill="#fff" stroke="${colour}" stroke-width="1.5"/>
</svg>`;
}

for (const [state, colour] of Object.entries(TRAY_COLOURS)) {
  await sharp(Buffer.from(svg(16, colour)))
    .png()
    .toFile(`${out}tray-${state}.png`);
  await sharp(Buffer.from(svg(32, colour)))
    .png()
    .toFile(`${out}tray-${state}@2x.png`);
}
await sharp(Buffer.from(svg(512, '#1d4ed8')))
  .png()
  .toFile(`${out}app.png`);
process.stdout.write(`icons written to ${out}\n`);
