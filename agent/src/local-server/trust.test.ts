import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LOCAL_SETTINGS, type LocalSettings } from './local-store.js';
import { isDevOrigin, judgeOrigin } from './trust.js';

const PAGE = 'https://shop.example';
const keys = [{ id: 'sk_1', publicKey: 'pem' }];
const s = (patch: Partial<LocalSettings>): LocalSettings => ({
  ...DEFAULT_LOCAL_SETTINGS,
  ...patch,
});
const verdict = (settings: LocalSettings, answers = {}, canAsk = false, origin = PAGE) => {
  const v = judgeOrigin(origin, settings, answers, canAsk);
  return v.kind === 'refuse' ? v.code : v.kind;
};

describe('who may print from an origin', () => {
  test('a new organization leaves no way: ORIGIN_NOT_ALLOWED', () => {
    assert.equal(verdict(DEFAULT_LOCAL_SETTINGS), 'ORIGIN_NOT_ALLOWED');
  });

  test('an allowed origin prints unsigned; a listed origin must match exactly', () => {
    assert.equal(verdict(s({ allowedOrigins: [PAGE] })), 'open');
    assert.equal(
      verdict(s({ allowedOrigins: [PAGE] }), {}, false, 'https://shop.example:8443'),
      'ORIGIN_NOT_ALLOWED',
    );
  });

  test('requireSignature comes first: SIGNATURE_REQUIRED without a key, judged per request with one', () => {
    const answers = { [PAGE]: { answer: 'block' as const, at: '' } };
    assert.equal(
      verdict(s({ requireSignature: true, allowedOrigins: [PAGE] }), answers),
      'SIGNATURE_REQUIRED',
    );
    assert.equal(verdict(s({ requireSignature: true, signingKeys: keys })), 'judge');
  });

  test('a blocked origin gets ORIGIN_BLOCKED before ORIGIN_NOT_ALLOWED, unless a signature could still print', () => {
    const answers = { [PAGE]: { answer: 'block' as const, at: '' } };
    assert.equal(verdict(s({ unsignedModeEnabled: true }), answers, true), 'ORIGIN_BLOCKED');
    assert.equal(verdict(s({ signingKeys: keys }), answers), 'judge');
  });

  test('unsigned mode asks only when someone can answer; an origin always allowed prints', () => {
    assert.equal(verdict(s({ unsignedModeEnabled: true }), {}, true), 'judge');
    assert.equal(verdict(s({ unsignedModeEnabled: true }), {}, false), 'ORIGIN_NOT_ALLOWED');
    const allowed = { [PAGE]: { answer: 'allow' as const, at: '' } };
    assert.equal(verdict(s({ unsignedModeEnabled: true }), allowed), 'open');
    assert.equal(verdict(s({ unsignedModeEnabled: false }), allowed), 'ORIGIN_NOT_ALLOWED');
  });

  test('dev mode opens http://localhost and http://127.0.0.1 on any port, whatever the rest says', () => {
    const strict = s({ devModeEnabled: true, requireSignature: true });
    assert.equal(verdict(strict, {}, false, 'http://localhost:5173'), 'open');
    assert.equal(verdict(strict, {}, false, 'http://127.0.0.1'), 'open');
    assert.equal(verdict(strict, {}, false, 'https://localhost:5173'), 'SIGNATURE_REQUIRED');
    assert.equal(isDevOrigin('http://localhost.evil.example'), false);
    assert.equal(isDevOrigin('http://127.0.0.1.nip.io:80'), false);
  });
});
