/**
 * What a standard reader sees: zbar (Debian zbar-tools) must decode every QR code and barcode the
 * virtual printer draws to the value that was encoded.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { renderEscposToPng } from './render.js';
import { ESC, GS, LF, esc, qrStore, requireTool, skipWithout } from '../testing/escpos.js';

const skip = skipWithout('zbarimg');
const dir = mkdtempSync(join(tmpdir(), 'printwire-scan-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Every symbology zbar knows enabled, UPC reported as UPC rather than EAN-13. */
const ZBAR_FLAGS = [
  'upca',
  'upce',
  'ean8',
  'ean13',
  'i25',
  'codabar',
  'code39',
  'code93',
  'code128',
  'qrcode',
].map((s) => `-S${s}.enable`);

async function scan(bytes: Uint8Array, name: string): Promise<string[]> {
  requireTool('zbarimg');
  const file = join(dir, `${name}.png`);
  writeFileSync(file, await renderEscposToPng(bytes, { paper: '80mm' }));
  // stderr piped away: zbar complains about D-Bus on machines without it.
  const out = execFileSync('zbarimg', ['-q', ...ZBAR_FLAGS, file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out.trim().split('\n');
}

const SETUP = [ESC, 0x40, ESC, 0x61, 1, GS, 0x68, 80];

describe('virtual printer: zbar decodes what it draws', { skip }, () => {
  const barcodes: Array<[string, number, string, string, number[]]> = [
    ['UPC-A', 65, '03600029145', 'UPC-A:036000291452', [GS, 0x77, 2, GS, 0x48, 2]],
    ['UPC-E', 66, '0425261', 'UPC-E:04252614', [GS, 0x77, 3, GS, 0x48, 0]],
    ['EAN13', 67, '400638133393', 'EAN-13:4006381333931', [GS, 0x77, 2, GS, 0x48, 1]],
    ['EAN8', 68, '9638507', 'EAN-8:96385074', [GS, 0x77, 3, GS, 0x48, 3]],
    ['CODE39', 69, 'PRINTWIRE-39', 'CODE-39:PRINTWIRE-39', [GS, 0x77, 2, GS, 0x48, 2]],
    ['ITF', 70, '0123456789', 'I2/5:0123456789', [GS, 0x77, 3, GS, 0x48, 2]],
    ['CODABAR', 71, 'A40156B', 'Codabar:A40156B', [GS, 0x77, 2, GS, 0x48, 2]],
    ['CODE93', 72, 'Code93 ok', 'CODE-93:Code93 ok', [GS, 0x77, 2, GS, 0x48, 2]],
    [
      'CODE128 {B',
      73,
      '{BPrintwire-128',
      'CODE-128:Printwire-128',
      [GS, 0x77, 2, GS, 0x48, 3, GS, 0x66, 1],
    ],
    [
      'CODE128 {C then {A',
      73,
      '{C\x0c\x22\x38{AXY',
      'CODE-128:123456XY',
      [GS, 0x77, 3, GS, 0x48, 2],
    ],
  ];
  for (const [name, m, data, expected, settings] of barcodes) {
    test(`${name} (GS k ${m}) decodes to ${expected.split(':')[1]}`, async () => {
      const bytes = esc(SETUP, settings, GS, 0x6b, m, data.length, data, LF);
      assert.deepEqual(await scan(bytes, name.replace(/\W/g, '')), [expected]);
    });
  }

  test('the NUL-terminated form (GS k 0-6) prints the same symbols', async () => {
    const bytes = esc(SETUP, GS, 0x6b, 2, '400638133393', 0, LF, GS, 0x6b, 4, 'ABC', 0, LF);
    const found = await scan(bytes, 'nul');
    assert.deepEqual(found.sort(), ['CODE-39:ABC', 'EAN-13:4006381333931']);
  });

  for (const [level, size] of [
    [48, 3],
    [49, 6],
    [50, 4],
    [51, 8],
  ] as const) {
    test(`a QR code at module size ${size}, error level ${'LMQH'[level - 48]} decodes`, async () => {
      const url = 'https://print.example.com/r/ord_2025_000123?t=A1b2C3d4E5f6G7';
      const bytes = esc(
        SETUP,
        [GS, 0x28, 0x6b, 4, 0, 49, 65, 50, 0],
        [GS, 0x28, 0x6b, 3, 0, 49, 67, size],
        [GS, 0x28, 0x6b, 3, 0, 49, 69, level],
        qrStore(url),
        [GS, 0x28, 0x6b, 3, 0, 49, 81, 48],
      );
      assert.deepEqual(await scan(bytes, `qr${size}`), [`QR-Code:${url}`]);
    });
  }
});
