import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateSync } from 'otplib';
import { postgresReachable, POSTGRES_URL } from '../../testing/stores.js';
import { refreshCookie, startDashboard, type DashboardHarness } from '../../testing/dashboard.js';

const skip = (await postgresReachable()) ? false : `PostgreSQL is not reachable at ${POSTGRES_URL}`;

describe('the dashboard on PostgreSQL', { skip }, () => {
  let h: DashboardHarness;
  before(async () => {
    h = await startDashboard({ kind: 'postgres' });
  });
  after(() => h?.close());

  test('accounts, sessions, two-factor, organizations and invitations work the same', async () => {
    const owner = await h.person('PgOwner');
    const refreshed = await h.call('POST', '/auth/refresh', { cookie: owner.cookie });
    assert.equal(refreshed.status, 200);
    assert.equal((await h.call('POST', '/auth/refresh', { cookie: owner.cookie })).status, 401);
    assert.equal(
      (await h.call('POST', '/auth/refresh', { cookie: refreshCookie(refreshed.headers) })).status,
      401,
      'the reuse closed the session',
    );
    const me = await h.login(owner);
    const setup = await h.call('POST', '/auth/2fa/setup', { token: me.access });
    const code = generateSync({
      secret: setup.body.secret,
      epoch: Math.floor(h.clock.now() / 1000),
    });
    const confirmed = await h.call('POST', '/auth/2fa/confirm', {
      token: me.access,
      body: { setupToken: setup.body.setupToken, code },
    });
    assert.equal(confirmed.body.enabled, true);
    const replay = await h.call('POST', '/auth/login', {
      body: { email: me.email, password: me.password, code },
    });
    assert.equal(replay.status, 401);
    const org = await h.call('POST', '/orgs', { token: me.access, body: { name: 'Pg Shop' } });
    assert.equal(org.body.localDownloadsToPrivateNetwork, false);
    const allowed = await h.call('PATCH', `/orgs/${org.body.id}`, {
      token: me.access,
      body: { localDownloadsToPrivateNetwork: true },
    });
    assert.equal(allowed.body.localDownloadsToPrivateNetwork, true);
    const guest = await h.person('PgGuest');
    await h.call('POST', `/orgs/${org.body.id}/invitations`, {
      token: me.access,
      body: { email: guest.email, role: 'viewer' },
    });
    const { token } = await h.lastMailTo(guest.email);
    const accepted = await h.call('POST', '/invitations/accept', {
      token: guest.access,
      body: { token },
    });
    assert.equal(accepted.body.role, 'viewer');
    const members = await h.call('GET', `/orgs/${org.body.id}/members`, { token: me.access });
    assert.deepEqual(
      members.body.data.map((m: { role: string }) => m.role),
      ['owner', 'viewer'],
    );
    const demote = await h.call('PATCH', `/orgs/${org.body.id}/members/${me.userId}`, {
      token: me.access,
      body: { role: 'viewer' },
    });
    assert.equal(demote.status, 409);
  });
});
