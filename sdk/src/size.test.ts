import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { buildBrowserBundle } from '../scripts/build.mjs';

/** The budget for the browser entry, minified and gzipped (qz-tray.js 2.3.0 is 9.3 KB). */
const MAX_GZIP_BYTES = 6 * 1024;

test('the browser bundle is at most 6 KB minified and gzipped, with no import left', async () => {
  const bytes = (await buildBrowserBundle({ write: false })) as Uint8Array;
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  assert.ok(gzipped <= MAX_GZIP_BYTES, `${gzipped} bytes gzipped`);
  const text = Buffer.from(bytes).toString('utf8');
  assert.doesNotMatch(text, /\bimport\s*[{"']|\brequire\(/);
  assert.match(text, /export\s*\{/);
});
