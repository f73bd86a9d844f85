import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EscposInterpreter, interpretEscpos } from './interpreter.js';
import { ESC, GS, LF, VALID, esc } from '../testing/escpos.js';
import type { PrintedPage } from './types.js';

const OPTIONS = { paper: '80mm' } as const;

function inChunks(bytes: Uint8Array, cuts: number[]): PrintedPage {
  const interpreter = new EscposInterpreter(OPTIONS);
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    interpreter.write(bytes.subarray(from, to));
    from = to;
  }
  return interpreter.end();
}

function assertSamePage(actual: PrintedPage, expected: PrintedPage, what: string): void {
  assert.equal(actual.height, expected.height, what);
  assert.deepEqual(actual.textRuns, expected.textRuns, what);
  assert.deepEqual(actual.graphics, expected.graphics, what);
  assert.deepEqual(actual.cuts, expected.cuts, what);
  assert.deepEqual(actual.statusRequests, expected.statusRequests, what);
  assert.deepEqual(actual.warnings, expected.warnings, what);
  assert.ok(Buffer.from(actual.pixels).equals(Buffer.from(expected.pixels)), `${what}: pixels`);
}

describe('virtual printer: a state machine over the byte stream', () => {
  test('a stream split in two at any byte prints the same page as in one piece', () => {
    const whole = interpretEscpos(VALID, OPTIONS);
    for (let cut = 1; cut < VALID.length; cut++) {
      assertSamePage(inChunks(VALID, [cut]), whole, `split at ${cut}`);
    }
  });

  test('a stream fed one byte at a time prints the same page', () => {
    const cuts = Array.from({ length: VALID.length - 1 }, (_, i) => i + 1);
    assertSamePage(inChunks(VALID, cuts), interpretEscpos(VALID, OPTIONS), 'byte by byte');
  });

  test('a command cut off at the end is reported once the stream ends, not before', () => {
    const interpreter = new EscposInterpreter(OPTIONS);
    interpreter.write(esc('ok', LF, GS, 0x76, 0x30, 0, 1, 0));
    interpreter.write(esc(2, 0, 0xff));
    const page = interpreter.end();
    assert.equal(page.textRuns[0]!.text, 'ok');
    assert.deepEqual(page.warnings, [
      'GS v declares 2 bytes of data but only 1 remain (at byte 3)',
    ]);
    assert.equal(page.height, 31);
  });

  test('the chunk a caller passes may be reused after write', () => {
    const interpreter = new EscposInterpreter(OPTIONS);
    const chunk = esc(ESC, 0x61);
    interpreter.write(chunk);
    chunk.fill(0);
    interpreter.write(esc(1, 'AB', LF));
    assert.equal(interpreter.end().textRuns[0]!.x, (576 - 24) / 2);
  });

  test('an unknown paper is refused with VALIDATION_FAILED', () => {
    assert.throws(
      () => new EscposInterpreter({ paper: '100mm' as '80mm' }),
      (e: Error & { code?: string }) =>
        e.code === 'VALIDATION_FAILED' && /58mm or 80mm/.test(e.message),
    );
  });
});
