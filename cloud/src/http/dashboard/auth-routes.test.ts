import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateSync } from 'otplib';
import { MemoryCache } from '../../cache/memory.js';
import { bootstrap } from '../../services/bootstrap.js';
import { refreshCookie, startDashboard, type DashboardHarness } from '../../testing/dashboard.js';

const MINUTE = 60_000;
const totpAt = (secret: string, ms: number) =>
  generateSync({ secret, epoch: Math.floor(ms / 1000) });
const withoutRequestId = (body: { requestId?: unknown }) => ({ ...body, requestId: undefined });
const paths = (body: { error: { details?: Array<{ path: string }> } }) =>
  (body.error.details ?? []).map((d) => d.path).sort();

describe('dashboard accounts', () => {
  let h: DashboardHarness;
  before(async () => {
    h = await startDashboard();
  });
  after(() => h.close());

  test('sign-up mails a verification link under PUBLIC_URL that verifies the address once', async () => {
    const email = 'Mixed.Case@Example.com';
    const res = await h.call('POST', '/auth/signup', {
      body: { email, password: 'a long password', name: 'Mix', locale: 'fr' },
    });
    assert.equal(res.status, 201);
    // This cloud has no SMTP server: the answer says the link is in a file, not in a mailbox.
    assert.equal(res.body.mailDelivery, 'files');
    assert.match(res.body.message, /\.eml file in the server’s mail folder/);
    const mail = await h.lastMailTo('mixed.case@example.com');
    assert.match(mail.subject, /Confirmez/);
    assert.ok(mail.links[0]!.startsWith(`${h.publicUrl}/verify-email?token=`));
    const login = { email, password: 'a long password' };
    const before = await h.call('POST', '/auth/login', { body: login });
    assert.equal(before.status, 403);
    assert.equal(before.body.error.code, 'EMAIL_NOT_VERIFIED');
    assert.match(before.body.error.message, /confirm your e-mail/);
    const verified = await h.call('POST', '/auth/verify-email', { body: { token: mail.token } });
    assert.equal(verified.status, 200);
    assert.equal(verified.body.emailVerified, true);
    assert.equal(verified.body.locale, 'fr');
    const again = await h.call('POST', '/auth/verify-email', { body: { token: mail.token } });
    assert.equal(again.status, 400);
    assert.deepEqual(paths(again.body), ['token']);
    assert.equal((await h.call('POST', '/auth/login', { body: login })).status, 200);
  });

  test('a verification link expires after 24 hours', async () => {
    const email = `late-${Date.now()}@example.com`;
    await h.call('POST', '/auth/signup', {
      body: { email, password: 'a long password', name: 'L' },
    });
    const { token } = await h.lastMailTo(email);
    h.clock.advance(24 * 60 * MINUTE);
    const res = await h.call('POST', '/auth/verify-email', { body: { token } });
    assert.equal(res.status, 400);
    const resend = await h.call('POST', '/auth/resend-verification', { body: { email } });
    assert.equal(resend.status, 202);
    const fresh = await h.lastMailTo(email);
    assert.notEqual(fresh.token, token);
    assert.equal(
      (await h.call('POST', '/auth/verify-email', { body: { token: fresh.token } })).status,
      200,
    );
  });

  test('signup, resend-verification and forgot-password answer alike for known and unknown addresses', async () => {
    const known = await h.person('Known');
    const unknown = `nobody-${Date.now()}@example.com`;
    const cases: Array<[string, (email: string) => unknown]> = [
      ['/auth/signup', (email) => ({ email, password: 'another password', name: 'X' })],
      ['/auth/resend-verification', (email) => ({ email })],
      ['/auth/forgot-password', (email) => ({ email })],
    ];
    for (const [path, body] of cases) {
      const a = await h.call('POST', path, { body: body(known.email) });
      const b = await h.call('POST', path, { body: body(unknown) });
      assert.equal(a.status, b.status, path);
      assert.deepEqual(a.body, b.body, path);
    }
  });

  test('a wrong password and an unknown address both answer the same 401', async () => {
    const p = await h.person('Wrong');
    const a = await h.call('POST', '/auth/login', { body: { email: p.email, password: 'nope' } });
    const b = await h.call('POST', '/auth/login', {
      body: { email: `x${p.email}`, password: p.password },
    });
    assert.equal(a.status, 401);
    assert.equal(b.status, 401);
    assert.deepEqual(withoutRequestId(a.body), withoutRequestId(b.body));
  });

  test('login answers an access token and an httpOnly, SameSite=Strict, Secure pw_refresh cookie on /auth', async () => {
    const p = await h.person('Cookie');
    const res = await h.call('POST', '/auth/login', {
      body: { email: p.email, password: p.password },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.user.email, p.email);
    assert.equal(Date.parse(res.body.expiresAt) - h.clock.now(), 15 * MINUTE);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('pw_refresh='))!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    assert.match(cookie, /Path=\/auth/);
    assert.match(cookie, /Secure/);
    const me = await h.call('GET', '/auth/me', { token: res.body.accessToken });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, p.userId);
    assert.equal((await h.call('GET', '/auth/me')).status, 401);
    assert.equal((await h.call('GET', '/auth/me', { token: 'x'.repeat(43) })).status, 401);
  });

  test('PATCH /auth/me changes the name and the locale, which the mails then use', async () => {
    const p = await h.person('Before');
    const named = await h.call('PATCH', '/auth/me', { token: p.access, body: { name: 'Anne' } });
    assert.equal(named.status, 200);
    assert.equal(named.body.name, 'Anne');
    assert.equal(named.body.locale, 'en');
    const french = await h.call('PATCH', '/auth/me', { token: p.access, body: { locale: 'fr' } });
    assert.equal(french.body.name, 'Anne');
    assert.equal(french.body.locale, 'fr');
    const me = await h.call('GET', '/auth/me', { token: p.access });
    assert.deepEqual([me.body.name, me.body.locale], ['Anne', 'fr']);
    await h.call('POST', '/auth/forgot-password', { body: { email: p.email } });
    assert.match((await h.lastMailTo(p.email)).subject, /votre.mot.de.passe/);
    assert.equal((await h.call('PATCH', '/auth/me', { body: { name: 'X' } })).status, 401);
  });

  test('PATCH /auth/me takes a name of 1 to 100 characters and a locale of en, fr or ht', async () => {
    const p = await h.person('Edges');
    const patch = (body: unknown) => h.call('PATCH', '/auth/me', { token: p.access, body });
    assert.equal((await patch({ name: 'n'.repeat(100) })).status, 200);
    assert.equal((await patch({ name: 'n' })).status, 200);
    assert.equal((await patch({ locale: 'ht' })).body.locale, 'ht');
    const bad = await patch({ name: 'n'.repeat(101), locale: 'de' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'VALIDATION_FAILED');
    assert.deepEqual(paths(bad.body), ['locale', 'name']);
    assert.deepEqual(paths((await patch({ name: '' })).body), ['name']);
    const me = await h.call('GET', '/auth/me', { token: p.access });
    assert.deepEqual([me.body.name, me.body.locale], ['n', 'ht']);
  });

  test('each field error names the rule it broke and its bounds, for a client to say in its language', async () => {
    const res = await h.call('POST', '/auth/signup', {
      body: { email: 'not-an-address', password: 'short', locale: 'de' },
    });
    assert.equal(res.status, 400);
    const rules = Object.fromEntries(
      (res.body.error.details as Array<{ path: string; rule: string; params?: object }>).map(
        (d) => [d.path, [d.rule, d.params]],
      ),
    );
    assert.deepEqual(rules, {
      email: ['email', undefined],
      password: ['min_length', { minimum: 10 }],
      name: ['required', undefined],
      locale: ['one_of', { values: 'en, fr, ht' }],
    });
    const p = await h.person('Rules');
    const org = await h.call('POST', '/orgs', { token: p.access, body: { name: 'Rule shop' } });
    const patch = await h.call('PATCH', `/orgs/${org.body.id}`, {
      token: p.access,
      body: { retentionDays: 3, name: 'x'.repeat(101) },
    });
    assert.deepEqual(
      patch.body.error.details.map((d: { rule: string; params?: object }) => [d.rule, d.params]),
      [
        ['max_length', { maximum: 100 }],
        ['one_of', { values: '0, 1, 7, 30, 90' }],
      ],
    );
  });

  test('an access token lives 15 minutes; refresh rotates the cookie and a reused one closes the session', async () => {
    const p = await h.person('Rotate');
    h.clock.advance(15 * MINUTE - 1);
    assert.equal((await h.call('GET', '/auth/me', { token: p.access })).status, 200);
    h.clock.advance(1);
    assert.equal((await h.call('GET', '/auth/me', { token: p.access })).status, 401);
    const r1 = await h.call('POST', '/auth/refresh', { cookie: p.cookie });
    assert.equal(r1.status, 200);
    const c1 = refreshCookie(r1.headers);
    assert.ok(c1 && c1 !== p.cookie);
    assert.equal((await h.call('GET', '/auth/me', { token: r1.body.accessToken })).status, 200);
    const reused = await h.call('POST', '/auth/refresh', { cookie: p.cookie });
    assert.equal(reused.status, 401);
    assert.match(reused.body.error.message, /already used/);
    assert.equal((await h.call('GET', '/auth/me', { token: r1.body.accessToken })).status, 401);
    assert.equal((await h.call('POST', '/auth/refresh', { cookie: c1 })).status, 401);
    assert.equal((await h.call('POST', '/auth/refresh')).status, 401);
  });

  test('logout ends the session of the access token and clears the cookie', async () => {
    const p = await h.person('Bye');
    const res = await h.call('POST', '/auth/logout', { token: p.access });
    assert.equal(res.status, 200);
    assert.match(res.headers.getSetCookie().join(), /pw_refresh=;.*Max-Age=0/);
    assert.equal((await h.call('GET', '/auth/me', { token: p.access })).status, 401);
    assert.equal((await h.call('POST', '/auth/refresh', { cookie: p.cookie })).status, 401);
  });

  test('a reset link sets a new password once within 1 hour and ends every session', async () => {
    const p = await h.person('Reset');
    await h.call('POST', '/auth/forgot-password', { body: { email: p.email } });
    const mail = await h.lastMailTo(p.email);
    assert.ok(mail.links[0]!.startsWith(`${h.publicUrl}/reset-password?token=`));
    const res = await h.call('POST', '/auth/reset-password', {
      body: { token: mail.token, password: 'brand new password' },
    });
    assert.equal(res.status, 200);
    assert.equal((await h.call('GET', '/auth/me', { token: p.access })).status, 401);
    assert.equal(
      (
        await h.call('POST', '/auth/reset-password', {
          body: { token: mail.token, password: 'another one!' },
        })
      ).status,
      400,
    );
    assert.equal(
      (await h.call('POST', '/auth/login', { body: { email: p.email, password: p.password } }))
        .status,
      401,
    );
    assert.equal(
      (
        await h.call('POST', '/auth/login', {
          body: { email: p.email, password: 'brand new password' },
        })
      ).status,
      200,
    );
    await h.call('POST', '/auth/forgot-password', { body: { email: p.email } });
    const late = await h.lastMailTo(p.email);
    h.clock.advance(60 * MINUTE);
    const expired = await h.call('POST', '/auth/reset-password', {
      body: { token: late.token, password: 'too late password' },
    });
    assert.equal(expired.status, 400);
  });

  test('one address gets three account e-mails at once, then one after 1 min, 2 min …; every request answers alike', async () => {
    const p = await h.person('Flooded'); // its verification e-mail is the first
    const count = async () => (await h.mails()).filter((m) => m.to === p.email).length;
    for (let i = 0; i < 5; i++) {
      const res = await h.call('POST', '/auth/forgot-password', { body: { email: p.email } });
      assert.equal(res.status, 202);
    }
    assert.equal(await count(), 3, 'the sign-up e-mail and two resets');
    h.clock.advance(MINUTE - 1);
    await h.call('POST', '/auth/forgot-password', { body: { email: p.email } });
    assert.equal(await count(), 3);
    h.clock.advance(1);
    await h.call('POST', '/auth/forgot-password', { body: { email: p.email } });
    assert.equal(await count(), 4, 'one more after a minute');
    h.clock.advance(MINUTE);
    await h.call('POST', '/auth/forgot-password', { body: { email: p.email } });
    assert.equal(await count(), 4, 'the next one waits two minutes');
    h.clock.advance(MINUTE);
    await h.call('POST', '/auth/forgot-password', { body: { email: p.email } });
    assert.equal(await count(), 5);
    // The last reset link works: the throttle held back e-mails, not tokens that were sent.
    const last = await h.lastMailTo(p.email);
    assert.equal(
      (
        await h.call('POST', '/auth/reset-password', {
          body: { token: last.token, password: 'flood survivor password' },
        })
      ).status,
      200,
    );
    // Another address is not held back by this one's count.
    const other = await h.person('Bystander');
    assert.equal((await h.mails()).filter((m) => m.to === other.email).length, 1);
  });

  test('repeated failures are throttled with Retry-After, capped, and the owner gets back in', async () => {
    const p = await h.person('Throttle');
    for (let i = 0; i < 5; i++) {
      const r = await h.call('POST', '/auth/login', {
        body: { email: p.email, password: 'wrong!' },
      });
      assert.equal(r.status, 401);
    }
    const limited = await h.call('POST', '/auth/login', {
      body: { email: p.email, password: p.password },
    });
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error.code, 'RATE_LIMITED');
    assert.equal(limited.headers.get('retry-after'), '1');
    h.clock.advance(1000);
    assert.equal(
      (await h.call('POST', '/auth/login', { body: { email: p.email, password: p.password } }))
        .status,
      200,
    );
    // The success reset the count: five more mistakes are allowed again.
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (await h.call('POST', '/auth/login', { body: { email: p.email, password: 'x' } })).status,
        401,
      );
    }
    h.clock.advance(15 * MINUTE);
  });

  test('turning two-factor off when it is off is 409 CONFLICT, an answer /openapi.json declares', async () => {
    const p = await h.person('NoTotp');
    const res = await h.call('POST', '/auth/2fa/disable', {
      token: p.access,
      body: { code: '123456' },
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'CONFLICT');
    const doc = await h.call('GET', '/openapi.json');
    assert.ok(doc.body.paths['/auth/2fa/disable'].post.responses['409']);
    assert.ok(doc.body.paths['/auth/2fa/setup'].post.responses['409']);
  });

  test('two-factor: setup, confirm, challenge, codes accepted once, recovery codes once, disable', async () => {
    const p = await h.person('Totp');
    assert.equal((await h.call('POST', '/auth/2fa/setup')).status, 401);
    const setup = await h.call('POST', '/auth/2fa/setup', { token: p.access });
    assert.equal(setup.status, 200);
    const { setupToken, secret, otpauthUrl } = setup.body;
    assert.match(otpauthUrl, /^otpauth:\/\/totp\/.*secret=/);
    assert.match(otpauthUrl, /issuer=Printwire/);
    const wrong = await h.call('POST', '/auth/2fa/confirm', {
      token: p.access,
      body: { setupToken, code: totpAt(secret, h.clock.now() + 5 * MINUTE) },
    });
    assert.equal(wrong.status, 401);
    const confirmed = await h.call('POST', '/auth/2fa/confirm', {
      token: p.access,
      body: { setupToken, code: totpAt(secret, h.clock.now()) },
    });
    assert.equal(confirmed.status, 200);
    assert.equal(confirmed.body.enabled, true);
    assert.equal(confirmed.body.recoveryCodes.length, 10);
    assert.equal(new Set(confirmed.body.recoveryCodes).size, 10);
    assert.equal((await h.call('POST', '/auth/2fa/setup', { token: p.access })).status, 409);

    // The confirming code cannot log in again within its step: move to the next step.
    h.clock.advance(30_000);
    const creds = { email: p.email, password: p.password };
    const challenge = await h.call('POST', '/auth/login', { body: creds });
    assert.equal(challenge.status, 200);
    assert.equal(challenge.body.twoFactorRequired, true);
    assert.equal(challenge.body.accessToken, undefined);
    assert.equal(refreshCookie(challenge.headers), '');
    const code = totpAt(secret, h.clock.now());
    const done = await h.call('POST', '/auth/login/2fa', {
      body: { challenge: challenge.body.challenge, code },
    });
    assert.equal(done.status, 200);
    assert.ok(done.body.accessToken);
    const replay = await h.call('POST', '/auth/login', { body: { ...creds, code } });
    assert.equal(replay.status, 401, 'a code is accepted once');
    h.clock.advance(30_000);
    const direct = await h.call('POST', '/auth/login', {
      body: { ...creds, code: totpAt(secret, h.clock.now()) },
    });
    assert.equal(direct.status, 200);

    const recoveryCode = confirmed.body.recoveryCodes[0];
    const viaRecovery = await h.call('POST', '/auth/login', { body: { ...creds, recoveryCode } });
    assert.equal(viaRecovery.status, 200);
    assert.equal(
      (await h.call('POST', '/auth/login', { body: { ...creds, recoveryCode } })).status,
      401,
    );

    // A password reset does not switch two-factor off.
    await h.call('POST', '/auth/forgot-password', { body: { email: p.email } });
    const { token } = await h.lastMailTo(p.email);
    await h.call('POST', '/auth/reset-password', {
      body: { token, password: 'reset password 2fa' },
    });
    const afterReset = await h.call('POST', '/auth/login', {
      body: { email: p.email, password: 'reset password 2fa' },
    });
    assert.equal(afterReset.body.twoFactorRequired, true);

    h.clock.advance(30_000);
    const access = direct.body.accessToken as string;
    const session = await h.call('POST', '/auth/login/2fa', {
      body: { challenge: afterReset.body.challenge, code: totpAt(secret, h.clock.now()) },
    });
    assert.equal(session.status, 200);
    assert.equal(
      (await h.call('GET', '/auth/me', { token: access })).status,
      401,
      'reset ended it',
    );
    h.clock.advance(30_000);
    const disabled = await h.call('POST', '/auth/2fa/disable', {
      token: session.body.accessToken,
      body: { code: totpAt(secret, h.clock.now()) },
    });
    assert.equal(disabled.status, 200);
    assert.equal(disabled.body.enabled, false);
    const plain = await h.call('POST', '/auth/login', {
      body: { email: p.email, password: 'reset password 2fa' },
    });
    assert.ok(plain.body.accessToken);
  });

  test('every field rule is enforced at its edges and each failing field is named', async () => {
    const local = (n: number) => 'a'.repeat(n);
    // 254 characters: 64 + 1 + 189 (labels of at most 63).
    const domain = `${local(63)}.${local(63)}.${local(57)}.com`;
    const email254 = `${local(64)}@${domain}`;
    assert.equal(email254.length, 254);
    const ok = { password: 'x'.repeat(10), name: 'N' };
    assert.equal(
      (await h.call('POST', '/auth/signup', { body: { ...ok, email: email254 } })).status,
      201,
    );
    const tooLong = await h.call('POST', '/auth/signup', {
      body: { ...ok, email: `b${email254}` },
    });
    assert.deepEqual(paths(tooLong.body), ['email']);
    const edges: Array<[Record<string, unknown>, string[]]> = [
      [
        { email: 'not-an-email', password: 'x'.repeat(9), name: '', locale: 'de' },
        ['email', 'locale', 'name', 'password'],
      ],
      [
        { email: 'e1@example.com', password: 'x'.repeat(201), name: 'n'.repeat(101) },
        ['name', 'password'],
      ],
      [{}, ['email', 'name', 'password']],
    ];
    for (const [body, expected] of edges) {
      const res = await h.call('POST', '/auth/signup', { body });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      assert.deepEqual(paths(res.body), expected);
    }
    const good = {
      email: 'e2@example.com',
      password: 'x'.repeat(200),
      name: 'n'.repeat(100),
      locale: 'ht',
    };
    assert.equal((await h.call('POST', '/auth/signup', { body: good })).status, 201);
    for (const [token, status] of [
      ['t'.repeat(9), 400],
      ['t'.repeat(10), 400],
      ['t'.repeat(200), 400],
      ['t'.repeat(201), 400],
    ] as const) {
      const res = await h.call('POST', '/auth/verify-email', { body: { token } });
      assert.equal(res.status, status);
      // In range the token is merely unknown; out of range it is malformed: both name the field.
      assert.deepEqual(paths(res.body), ['token']);
    }
    const reset = await h.call('POST', '/auth/reset-password', {
      body: { token: 't'.repeat(9), password: 'short' },
    });
    assert.deepEqual(paths(reset.body), ['password', 'token']);
    const login = await h.call('POST', '/auth/login', {
      body: { email: 'e2@example.com', password: '', code: '12345' },
    });
    assert.deepEqual(paths(login.body), ['code', 'password']);
    const letters = await h.call('POST', '/auth/login', {
      body: { email: 'e2@example.com', password: 'p'.repeat(201), code: '12345a' },
    });
    assert.deepEqual(paths(letters.body), ['code', 'password']);
    const twoFa = await h.call('POST', '/auth/login/2fa', { body: { challenge: '' } });
    assert.deepEqual(paths(twoFa.body), ['challenge', 'code']);
    const seven = await h.call('POST', '/auth/login/2fa', {
      body: { challenge: 'c', code: '1234567' },
    });
    assert.deepEqual(paths(seven.body), ['code']);
    const sixOk = await h.call('POST', '/auth/login/2fa', {
      body: { challenge: 'c', code: '123456' },
    });
    assert.equal(sixOk.status, 401, 'well-formed, but no such challenge');
  });

  test('an account made by admin bootstrap (scrypt hash) logs in', async () => {
    const email = `boot-${Date.now()}@example.com`;
    await bootstrap(h.store, { email, password: 'bootstrap password', org: 'Boot' }, h.clock.now());
    const res = await h.call('POST', '/auth/login', {
      body: { email, password: 'bootstrap password' },
    });
    assert.equal(res.status, 200);
    const orgs = await h.call('GET', '/orgs', { token: res.body.accessToken });
    assert.deepEqual(
      orgs.body.data.map((o: { name: string; role: string }) => [o.name, o.role]),
      [['Boot', 'owner']],
    );
    const wrong = await h.call('POST', '/auth/login', {
      body: { email, password: 'bootstrap passwore' },
    });
    assert.equal(wrong.status, 401);
  });

  test('one client address is throttled after 20 failures across accounts', async () => {
    const fresh = await startDashboard();
    try {
      for (let i = 0; i < 20; i++) {
        const r = await fresh.call('POST', '/auth/login', {
          body: { email: `guess${i}@example.com`, password: 'guess' },
        });
        assert.equal(r.status, 401);
      }
      const next = await fresh.call('POST', '/auth/login', {
        body: { email: 'guess-other@example.com', password: 'guess' },
      });
      assert.equal(next.status, 429);
      fresh.clock.advance(1000);
      const later = await fresh.call('POST', '/auth/login', {
        body: { email: 'guess-other@example.com', password: 'guess' },
      });
      assert.equal(later.status, 401);
    } finally {
      await fresh.close();
    }
  });

  test('a refresh token ends with its session 30 days after login', async () => {
    const p = await h.person('Month');
    h.clock.advance(30 * 24 * 60 * MINUTE - 1);
    const last = await h.call('POST', '/auth/refresh', { cookie: p.cookie });
    assert.equal(last.status, 200);
    h.clock.advance(1);
    const over = await h.call('POST', '/auth/refresh', { cookie: refreshCookie(last.headers) });
    assert.equal(over.status, 401);
  });

  test('the refresh cookie is not Secure when PUBLIC_URL is plain http', async () => {
    const plain = await startDashboard({ publicUrl: 'http://127.0.0.1:8080' });
    try {
      const p = await plain.person('Plain');
      const res = await plain.call('POST', '/auth/login', {
        body: { email: p.email, password: p.password },
      });
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('pw_refresh='))!;
      assert.match(cookie, /HttpOnly/);
      assert.doesNotMatch(cookie, /Secure/);
      assert.ok((await plain.lastMailTo(p.email)).links[0]!.startsWith('http://127.0.0.1:8080/'));
    } finally {
      await plain.close();
    }
  });
});

/** The in-process cache store whose login throttle stops answering when told to (Redis down). */
class FailingThrottleCache extends MemoryCache {
  down = false;

  override throttleWait(key: string, now: number): Promise<number> {
    if (this.down) return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    return super.throttleWait(key, now);
  }
}

describe('dashboard sign-in without the cache store', () => {
  const cache = new FailingThrottleCache();
  let h: DashboardHarness;
  before(async () => {
    h = await startDashboard({ cache });
  });
  after(async () => {
    await h?.close();
  });

  test('a login is refused with 503 UNAVAILABLE naming the cache store, not let through unthrottled', async () => {
    const p = await h.person('Cacheless');
    cache.down = true;
    const refused = await h.call('POST', '/auth/login', {
      body: { email: p.email, password: p.password },
    });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error.code, 'UNAVAILABLE');
    assert.match(refused.body.error.message, /cache store/);
    cache.down = false;
    const back = await h.call('POST', '/auth/login', {
      body: { email: p.email, password: p.password },
    });
    assert.equal(back.status, 200);
  });

  test('a reset request is refused with 503 naming the cache store, for a known and an unknown address alike, and no e-mail goes out unlimited', async () => {
    const p = await h.person('Unlimited');
    cache.down = true;
    const refused = await h.call('POST', '/auth/forgot-password', { body: { email: p.email } });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error.code, 'UNAVAILABLE');
    assert.match(refused.body.error.message, /account e-mails are paused: the cache store/);
    const unknown = await h.call('POST', '/auth/forgot-password', {
      body: { email: `nobody-${Date.now()}@example.com` },
    });
    assert.deepEqual(
      [unknown.status, unknown.body.error?.code],
      [503, 'UNAVAILABLE'],
      'an unknown address is answered alike',
    );
    cache.down = false;
    assert.equal(
      (await h.mails()).filter((m) => m.to === p.email).length,
      1,
      'only the sign-up e-mail',
    );
  });
});

describe('account e-mails while the mail server is down', () => {
  let h: DashboardHarness;
  let down = false;
  let refused = 0;
  before(async () => {
    h = await startDashboard({
      mailer: (files) => ({
        async send(message) {
          if (down) {
            refused++;
            throw new Error('connect ECONNREFUSED 127.0.0.1:587');
          }
          await files.send(message);
        },
      }),
    });
  });
  after(() => h.close());

  test('sign-up, a password reset and an invitation still succeed; their e-mails go out once the server is back, with working links', async () => {
    const owner = await h.person('Owner');
    const org = await h.call('POST', '/orgs', { token: owner.access, body: { name: 'Shop' } });
    assert.equal(org.status, 201);
    down = true;
    const email = `down-${Date.now()}@example.com`;
    const signup = await h.call('POST', '/auth/signup', {
      body: { email, password: 'a long password', name: 'Down' },
    });
    assert.equal(signup.status, 201);
    assert.equal(
      (await h.call('POST', '/auth/forgot-password', { body: { email: owner.email } })).status,
      202,
    );
    const invite = await h.call('POST', `/orgs/${org.body.id}/invitations`, {
      token: owner.access,
      body: { email, role: 'viewer' },
    });
    assert.equal(invite.status, 201);

    await h.sendMail();
    assert.equal(refused, 3, 'each e-mail was tried once');
    assert.equal(await h.store.mailOutbox.size(), 3, 'and kept');
    await assert.rejects(h.lastMailTo(email), /no mail to/);

    down = false;
    h.clock.advance(30_000);
    // Two e-mails to `email` went out in one look: told apart by their links.
    const mailWith = async (to: string, page: string) => {
      const found = (await h.mails()).find(
        (m) => m.to === to && m.links[0]!.startsWith(`${h.publicUrl}/${page}?token=`),
      );
      assert.ok(found, `an e-mail to ${to} linking to /${page}`);
      return found;
    };
    const verify = await mailWith(email, 'verify-email');
    assert.equal(
      (await h.call('POST', '/auth/verify-email', { body: { token: verify.token } })).status,
      200,
    );
    const reset = await mailWith(owner.email, 'reset-password');
    assert.equal(
      (
        await h.call('POST', '/auth/reset-password', {
          body: { token: reset.token, password: 'a new long password' },
        })
      ).status,
      200,
    );
    const invitation = await mailWith(email, 'invitations/accept');
    const invitee = await h.login({
      userId: '',
      email,
      password: 'a long password',
      access: '',
      cookie: '',
    });
    const accepted = await h.call('POST', '/invitations/accept', {
      token: invitee.access,
      body: { token: invitation.token },
    });
    assert.equal(accepted.status, 200);
    assert.equal(accepted.body.organization.id, org.body.id);
    assert.equal(await h.store.mailOutbox.size(), 0, 'sent and deleted');
    assert.equal(refused, 3);
  });

  test('a reset e-mail that could not be sent within its hour is dropped, not sent with a dead link', async () => {
    const p = await h.person('Late');
    down = true;
    await h.call('POST', '/auth/forgot-password', { body: { email: p.email } });
    await h.sendMail();
    down = false;
    h.clock.advance(60 * MINUTE);
    await h.sendMail();
    assert.equal(await h.store.mailOutbox.size(), 0);
    const mails = (await h.mails()).filter((m) => m.to === p.email);
    assert.deepEqual(
      mails.map((m) => m.links[0]!.split('?')[0]),
      [`${h.publicUrl}/verify-email`],
      'only the sign-up e-mail reached them',
    );
  });
});

describe('dashboard accounts with a mail server', () => {
  test('sign-up says to check the mailbox when mail leaves by SMTP', async () => {
    const h = await startDashboard({
      mailer: (files) => ({ delivery: 'smtp', send: (message) => files.send(message) }),
    });
    try {
      const res = await h.call('POST', '/auth/signup', {
        body: { email: 'smtp@example.com', password: 'a long password', name: 'S', locale: 'en' },
      });
      assert.equal(res.status, 201);
      assert.equal(res.body.mailDelivery, 'smtp');
      assert.match(res.body.message, /check your mail/);
    } finally {
      await h.close();
    }
  });
});
