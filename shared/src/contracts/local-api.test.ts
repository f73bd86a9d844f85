import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ERROR_CATALOG } from '../errors/index.js';
import {
  LOCAL_ERROR_CODES,
  parseSignaturePayload,
  SDK_ERROR_CODES,
  signatureHeader,
  signaturePayload,
  signedMessage,
} from './local-api.js';

const parts = {
  method: 'job.print',
  path: '/v1/local',
  origin: 'https://shop.example',
  bodySha256: 'a'.repeat(64),
  timestamp: 1_790_000_000,
  nonce: '0123456789abcdef0123',
};

test('the wire module imports nothing, so the SDK can inline it and stay without dependency', () => {
  const source = readFileSync(new URL('./local-api.ts', import.meta.url), 'utf8');
  assert.doesNotMatch(source, /^import\s/m);
  assert.doesNotMatch(source, /^export\s[^\n]*\sfrom\s+['"]/m);
  assert.doesNotMatch(source, /\brequire\(|\bimport\(/);
});

test('the payload is seven lines, read back the same', () => {
  const payload = signaturePayload(parts);
  assert.equal(
    payload,
    `printwire-local-v1\njob.print\n/v1/local\nhttps://shop.example\n${'a'.repeat(64)}\n1790000000\n0123456789abcdef0123`,
  );
  assert.deepEqual(parseSignaturePayload(payload), parts);
  assert.equal(signedMessage('sk_1', payload), `sk_1\n${payload}`);
  assert.equal(signatureHeader('sk_1', 'c2ln'), 'keyId=sk_1,signature=c2ln');
});

test('text that is not a payload is not read as one', () => {
  const payload = signaturePayload(parts);
  assert.equal(parseSignaturePayload(`${payload}\nextra`), null);
  assert.equal(parseSignaturePayload(payload.replace('job.print', 'JOB')), null);
  assert.equal(parseSignaturePayload(signaturePayload({ ...parts, nonce: 'short' })), null);
});

test('every code of the local API and of the SDK is in the one catalog, as docs/local-api.md says', () => {
  for (const code of [...LOCAL_ERROR_CODES, ...SDK_ERROR_CODES]) {
    assert.ok(code in ERROR_CATALOG, `${code} in ERROR_CATALOG`);
  }
  const retryable = LOCAL_ERROR_CODES.filter((c) => ERROR_CATALOG[c].retryable);
  assert.deepEqual(retryable, ['UNAVAILABLE', 'INTERNAL']);
  assert.equal(ERROR_CATALOG.TOO_LARGE.status, 413);
  assert.equal(ERROR_CATALOG.SIGNATURE_REQUIRED.status, 403);
});
