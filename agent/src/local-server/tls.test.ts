import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { ensureLocalTls, TLS_DEFAULTS } from './tls.js';

const leafOf = (pem: string) =>
  new X509Certificate(pem.split(/(?<=-----END CERTIFICATE-----\n)/)[0]!);

test('the first start makes a CA and a localhost certificate it signed, for localhost, 127.0.0.1 and ::1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pw-tls-'));
  const tls = ensureLocalTls(dir);
  const ca = new X509Certificate(readFileSync(tls.caPath));
  const leaf = leafOf(tls.cert);
  assert.ok(ca.ca);
  assert.ok(leaf.checkIssued(ca));
  assert.ok(leaf.verify(ca.publicKey));
  assert.equal(
    leaf.subjectAltName,
    'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1',
  );
  assert.equal(statSync(join(dir, 'tls', 'ca.key')).mode & 0o777, 0o600);
  assert.ok(!tls.cert.includes('PRIVATE KEY'));
});

test('a later start reuses the CA and the certificate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pw-tls-'));
  const first = ensureLocalTls(dir);
  const again = ensureLocalTls(dir);
  assert.equal(again.caCert, first.caCert);
  assert.equal(again.cert, first.cert);
});

test('a certificate within 30 days of its end is made again by the same CA', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pw-tls-'));
  const now = new Date('2026-01-01T00:00:00Z');
  const first = ensureLocalTls(dir, now);
  const justBefore = new Date(
    now.getTime() + (TLS_DEFAULTS.serverDays - TLS_DEFAULTS.renewBeforeDays - 1) * 86_400_000,
  );
  assert.equal(ensureLocalTls(dir, justBefore).cert, first.cert);
  const late = new Date(justBefore.getTime() + 2 * 86_400_000);
  const renewed = ensureLocalTls(dir, late);
  assert.notEqual(renewed.cert, first.cert);
  assert.equal(renewed.caCert, first.caCert);
  assert.ok(leafOf(renewed.cert).checkIssued(new X509Certificate(first.caCert)));
});
