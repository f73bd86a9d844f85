import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { signWebhookPayload, verifyWebhookSignature } from './index.js';

const secret = 'whsec_test_0123456789abcdef';
const body = '{"id":"evt_1","type":"job.printed"}';

test('the signature is the hex HMAC-SHA256 of "t.body" keyed with the whole secret', () => {
  // Computed independently of the module, as a customer would.
  const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
  assert.equal(signWebhookPayload(secret, 1700000000, body), `t=1700000000,v1=${expected}`);
});

test('a signature verifies against the same raw body, as string or bytes', () => {
  const header = signWebhookPayload(secret, 1700000000, body);
  assert.deepEqual(verifyWebhookSignature(secret, header, body, { now: 1700000100 }), {
    ok: true,
    timestamp: 1700000000,
  });
  assert.equal(
    verifyWebhookSignature(secret, header, Buffer.from(body), { now: 1700000000 }).ok,
    true,
  );
});

test('a body changed by one byte, or another secret, does not verify', () => {
  const header = signWebhookPayload(secret, 1700000000, body);
  const changed = verifyWebhookSignature(secret, header, body.replace('1', '2'), {
    now: 1700000000,
  });
  assert.equal(changed.ok, false);
  assert.equal(!changed.ok && changed.reason, 'signature_mismatch');
  assert.equal(verifyWebhookSignature('whsec_other', header, body, { now: 1700000000 }).ok, false);
});

test('the timestamp tolerance is 300 seconds by default, inclusive, in both directions', () => {
  const header = signWebhookPayload(secret, 1700000000, body);
  assert.equal(verifyWebhookSignature(secret, header, body, { now: 1700000300 }).ok, true);
  assert.equal(verifyWebhookSignature(secret, header, body, { now: 1699999700 }).ok, true);
  const late = verifyWebhookSignature(secret, header, body, { now: 1700000301 });
  assert.equal(!late.ok && late.reason, 'timestamp_out_of_tolerance');
  assert.equal(verifyWebhookSignature(secret, header, body, { now: 1699999699 }).ok, false);
  assert.equal(
    verifyWebhookSignature(secret, header, body, { now: 1700000301, toleranceSeconds: 301 }).ok,
    true,
  );
});

test('a header with several v1 values passes when any matches (secret rotation)', () => {
  const good = signWebhookPayload(secret, 1700000000, body).split(',')[1];
  const header = `t=1700000000,v1=${'0'.repeat(64)},${good}`;
  assert.equal(verifyWebhookSignature(secret, header, body, { now: 1700000000 }).ok, true);
});

test('malformed headers are refused with a reason, never an exception', () => {
  for (const header of [
    undefined,
    null,
    '',
    't=abc,v1=00',
    'v1=' + 'a'.repeat(64),
    't=1700000000',
    'garbage',
  ]) {
    const r = verifyWebhookSignature(secret, header, body, { now: 1700000000 });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.reason, 'malformed_header');
  }
});

test('signing refuses a timestamp that is not whole unix seconds', () => {
  assert.throws(() => signWebhookPayload(secret, 1.5, body), /timestamp/);
  assert.throws(() => signWebhookPayload(secret, -1, body), /timestamp/);
});
