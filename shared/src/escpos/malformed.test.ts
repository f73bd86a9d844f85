/**
 * Malformed ESC/POS never crashes, never loops and ends quickly: truncated commands at every cut
 * point of a valid stream, huge declared lengths, and random bytes.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { renderEscposToPng } from './render.js';
import { ESC, GS, LF, VALID, esc, print } from '../testing/escpos.js';

/** A generous bound for CI machines; each case takes a few milliseconds here. */
const TIME_LIMIT_MS = 2000;

/** Mulberry32: a small seeded generator, so that the random stream is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function timed<T>(fn: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = fn();
  return { result, ms: performance.now() - start };
}

describe('virtual printer: malformed input', () => {
  test('the valid stream prints with the one warning it asks for', () => {
    const page = print(VALID);
    assert.deepEqual(page.warnings, [
      'user-defined characters (ESC &) are not drawn (at byte 201)',
    ]);
    assert.deepEqual(
      page.textRuns.map((r) => r.text),
      ['Header', 'tab'],
    );
    assert.ok(page.textRuns.length > 0);
    assert.equal(page.cuts.length, 2);
    assert.equal(page.graphics.filter((g) => g.kind === 'barcode').length, 2);
    assert.ok(page.graphics.some((g) => g.kind === 'qr'));
  });

  test('the stream cut at every byte renders without throwing', () => {
    const { ms } = timed(() => {
      for (let end = 0; end <= VALID.length; end++) {
        const page = print(VALID.subarray(0, end));
        assert.ok(page.height >= 1, `cut at ${end}`);
      }
    });
    assert.ok(ms < TIME_LIMIT_MS * 5, `${VALID.length + 1} truncations took ${ms} ms`);
  });

  test('a command cut off by the end of the data is reported', () => {
    const page = print(esc(ESC, 0x70, 0));
    assert.match(page.warnings.join('\n'), /ESC p cut off by the end of the data/);
  });

  test('huge declared lengths are clamped to the bytes that remain', () => {
    const cases = [
      esc(GS, 0x76, 0x30, 0, 0xff, 0xff, 0xff, 0xff, 1, 2, 3),
      esc(GS, 0x28, 0x6b, 0xff, 0xff, 49, 80, 48, 'abc'),
      esc(GS, 0x38, 0x4c, 0xff, 0xff, 0xff, 0xff, 1, 2),
      esc(ESC, 0x2a, 33, 0xff, 0xff, 1, 2, 3),
      esc(GS, 0x6b, 73, 0xff, 0x7b, 0x42, 'a'),
      esc(ESC, 0x26, 3, 0, 255, 255),
      esc(0x1c, 0x71, 2, 0xff, 0xff, 0xff, 0xff, 1),
    ];
    for (const bytes of cases) {
      const { result, ms } = timed(() => print(bytes));
      assert.ok(ms < TIME_LIMIT_MS, `took ${ms} ms`);
      assert.ok(result.warnings.length > 0);
    }
  });

  test('a raster image running past the maximum height stops the page (only rows that could fit are read)', () => {
    const rows = 3000;
    const image = esc(
      GS,
      0x76,
      0x30,
      3,
      1,
      0,
      rows & 0xff,
      rows >> 8,
      new Uint8Array(rows).fill(0xff),
    );
    const page = print(image, { maxHeight: 1000 });
    assert.ok(page.height <= 1000);
    assert.match(page.warnings.join('\n'), /maximum height of 1000 dots/);
  });

  test('64 KB of seeded random bytes render to a PNG quickly', async () => {
    const random = seeded(20251122);
    const bytes = new Uint8Array(64 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
    const start = performance.now();
    const png = await renderEscposToPng(bytes, { paper: '58mm' });
    const ms = performance.now() - start;
    assert.ok(ms < TIME_LIMIT_MS, `took ${ms} ms`);
    assert.equal(png.readUInt32BE(16), 384);
  });

  test('random bytes biased towards command prefixes never throw', () => {
    const random = seeded(7);
    const prefixes = [ESC, GS, 0x1c, 0x10, LF, 0x09, 0];
    for (let round = 0; round < 20; round++) {
      const bytes = new Uint8Array(4096);
      for (let i = 0; i < bytes.length; i++) {
        bytes[i] =
          random() < 0.3
            ? prefixes[Math.floor(random() * prefixes.length)]!
            : Math.floor(random() * 256);
      }
      const { ms } = timed(() => print(bytes));
      assert.ok(ms < TIME_LIMIT_MS, `round ${round} took ${ms} ms`);
    }
  });
});
