import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, verify } from 'node:crypto';
import { signaturePayload } from './sign.js';
import { parsePayload, signPayload } from './server.js';

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const payload = signaturePayload({
  method: 'job.print',
  path: '/v1/local',
  origin: 'https://shop.example',
  bodySha256: 'a'.repeat(64),
  timestamp: 1_790_000_000,
  nonce: '0123456789abcdef0123',
});

test('signPayload signs the key id and the payload with an Ed25519 PKCS#8 key', () => {
  const answer = signPayload({ keyId: 'sk_1', privateKey: pem }, payload);
  const match = /^keyId=sk_1,signature=(.+)$/.exec(answer);
  assert.ok(match);
  assert.ok(
    verify(null, Buffer.from(`sk_1\n${payload}`), publicKey, Buffer.from(match[1]!, 'base64')),
  );
  assert.ok(
    !verify(null, Buffer.from(`sk_2\n${payload}`), publicKey, Buffer.from(match[1]!, 'base64')),
  );
});

test('signPayload refuses a payload from an origin not listed, and text that is not a payload', () => {
  assert.throws(
    () =>
      signPayload({ keyId: 'sk_1', privateKey: pem }, payload, {
        origins: ['https://other.example'],
      }),
    /refusing to sign for origin https:\/\/shop.example/,
  );
  assert.equal(
    signPayload({ keyId: 'sk_1', privateKey }, payload, {
      origins: ['https://shop.example'],
    }).startsWith('keyId=sk_1,'),
    true,
  );
  assert.throws(
    () => signPayload({ keyId: 'sk_1', privateKey: pem }, 'sign me'),
    /not a Printwire local payload/,
  );
  assert.throws(
    () => parsePayload(payload.replace('a'.repeat(64), 'a'.repeat(63))),
    /not a Printwire/,
  );
});

test('parsePayload reads back what the SDK built', () => {
  assert.deepEqual(parsePayload(payload), {
    method: 'job.print',
    path: '/v1/local',
    origin: 'https://shop.example',
    bodySha256: 'a'.repeat(64),
    timestamp: 1_790_000_000,
    nonce: '0123456789abcdef0123',
  });
});
