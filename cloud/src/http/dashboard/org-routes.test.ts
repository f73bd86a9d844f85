import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ROLES } from '../../accounts/permissions.js';
import { startDashboard, type DashboardHarness, type Person } from '../../testing/dashboard.js';

const DAY = 24 * 3_600_000;
const paths = (body: { error: { details?: Array<{ path: string }> } }) =>
  (body.error.details ?? []).map((d) => d.path).sort();

describe('dashboard organizations', () => {
  let h: DashboardHarness;
  let owner: Person;
  before(async () => {
    h = await startDashboard();
    owner = await h.person('Owner');
  });
  after(() => h.close());
  // Tests move the clock by days: each starts with a fresh access token.
  beforeEach(async () => {
    owner = await h.login(owner);
  });

  async function newOrg(by: Person = owner, name = 'Corner Shop'): Promise<string> {
    const res = await h.call('POST', '/orgs', { token: by.access, body: { name } });
    assert.equal(res.status, 201);
    return res.body.id as string;
  }

  test('the creator is owner; the org is listed with the role and /me names the permissions', async () => {
    const res = await h.call('POST', '/orgs', {
      token: owner.access,
      body: { name: 'Bakery', locale: 'ht' },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.name, 'Bakery');
    assert.equal(res.body.locale, 'ht');
    assert.equal(res.body.plan, 'free');
    assert.equal(res.body.retentionDays, 7);
    const list = await h.call('GET', '/orgs', { token: owner.access });
    const mine = list.body.data.find((o: { id: string }) => o.id === res.body.id);
    assert.equal(mine.role, 'owner');
    const me = await h.call('GET', `/orgs/${res.body.id}/me`, { token: owner.access });
    assert.equal(me.body.role, 'owner');
    assert.ok(me.body.permissions.includes('org:delete'));
    assert.equal((await h.call('GET', '/orgs')).status, 401);
  });

  test('organization names are 2-100 characters and each setting keeps its rules', async () => {
    for (const [name, status] of [
      ['a', 400],
      ['ab', 201],
      ['n'.repeat(100), 201],
      ['n'.repeat(101), 400],
    ] as const) {
      const res = await h.call('POST', '/orgs', { token: owner.access, body: { name } });
      assert.equal(res.status, status, `name of ${name.length}`);
    }
    const id = await newOrg();
    const fresh = await h.call('GET', `/orgs/${id}`, { token: owner.access });
    assert.equal(fresh.body.localDownloadsToPrivateNetwork, false, 'off for a new organization');
    for (const retentionDays of [0, 1, 7, 30, 90]) {
      const res = await h.call('PATCH', `/orgs/${id}`, {
        token: owner.access,
        body: { retentionDays },
      });
      assert.equal(res.body.retentionDays, retentionDays);
    }
    const all = await h.call('PATCH', `/orgs/${id}`, {
      token: owner.access,
      body: {
        name: 'Renamed',
        locale: 'fr',
        requireSignature: true,
        unsignedModeEnabled: true,
        devModeEnabled: true,
        localDownloadsToPrivateNetwork: true,
      },
    });
    assert.equal(all.status, 200);
    assert.equal(all.body.localDownloadsToPrivateNetwork, true);
    assert.deepEqual(
      [all.body.name, all.body.locale, all.body.requireSignature, all.body.unsignedModeEnabled],
      ['Renamed', 'fr', true, true],
    );
    assert.equal(all.body.devModeEnabled, true);
    const bad = await h.call('PATCH', `/orgs/${id}`, {
      token: owner.access,
      body: {
        name: 'x',
        locale: 'es',
        retentionDays: 2,
        requireSignature: 'yes',
        unsignedModeEnabled: 1,
        devModeEnabled: null,
        localDownloadsToPrivateNetwork: 'no',
      },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(paths(bad.body), [
      'devModeEnabled',
      'localDownloadsToPrivateNetwork',
      'locale',
      'name',
      'requireSignature',
      'retentionDays',
      'unsignedModeEnabled',
    ]);
  });

  test('deleting needs the exact name typed in confirm', async () => {
    const id = await newOrg(owner, 'Delete Me');
    const wrong = await h.call('DELETE', `/orgs/${id}`, {
      token: owner.access,
      body: { confirm: 'delete me' },
    });
    assert.equal(wrong.status, 400);
    assert.deepEqual(paths(wrong.body), ['confirm']);
    const ok = await h.call('DELETE', `/orgs/${id}`, {
      token: owner.access,
      body: { confirm: 'Delete Me' },
    });
    assert.equal(ok.status, 200);
    assert.equal((await h.call('GET', `/orgs/${id}`, { token: owner.access })).status, 404);
  });

  test('every role against every organization endpoint (one permission table)', async () => {
    const id = await newOrg(owner, 'Roles');
    const people: Record<string, Person> = { owner };
    for (const r of ROLES.filter((x) => x !== 'owner')) {
      people[r] = await h.person(r);
      await h.store.organizations.addMember(id, people[r]!.userId, r, h.clock.now());
    }
    const o = `/orgs/${id}`;
    // Bodies are invalid (or ids unknown) where the call is allowed, so nothing changes.
    const table: Array<[string, string, unknown, Record<string, number>]> = [
      ['GET', o, undefined, { owner: 200, admin: 200, developer: 200, viewer: 200 }],
      ['GET', `${o}/me`, undefined, { owner: 200, admin: 200, developer: 200, viewer: 200 }],
      ['PATCH', o, { retentionDays: 3 }, { owner: 400, admin: 400, developer: 403, viewer: 403 }],
      ['DELETE', o, { confirm: 'no' }, { owner: 400, admin: 403, developer: 403, viewer: 403 }],
      ['GET', `${o}/members`, undefined, { owner: 200, admin: 200, developer: 200, viewer: 200 }],
      [
        'PATCH',
        `${o}/members/usr_nobody`,
        { role: 'viewer' },
        { owner: 404, admin: 404, developer: 403, viewer: 403 },
      ],
      [
        'DELETE',
        `${o}/members/usr_nobody`,
        undefined,
        { owner: 404, admin: 404, developer: 403, viewer: 403 },
      ],
      [
        'GET',
        `${o}/invitations`,
        undefined,
        { owner: 200, admin: 200, developer: 200, viewer: 200 },
      ],
      [
        'POST',
        `${o}/invitations`,
        { email: 'bad', role: 'viewer' },
        { owner: 400, admin: 400, developer: 403, viewer: 403 },
      ],
      [
        'DELETE',
        `${o}/invitations/inv_nobody`,
        undefined,
        { owner: 404, admin: 404, developer: 403, viewer: 403 },
      ],
      ['GET', `${o}/billing`, undefined, { owner: 200, admin: 200, developer: 200, viewer: 200 }],
      ['GET', `${o}/api-keys`, undefined, { owner: 200, admin: 200, developer: 200, viewer: 200 }],
      [
        'POST',
        `${o}/api-keys`,
        { name: '' },
        { owner: 400, admin: 400, developer: 400, viewer: 403 },
      ],
      [
        'DELETE',
        `${o}/api-keys/key_nobody`,
        undefined,
        { owner: 404, admin: 404, developer: 404, viewer: 403 },
      ],
      [
        'POST',
        `${o}/activation-codes`,
        { name: '' },
        { owner: 400, admin: 400, developer: 400, viewer: 403 },
      ],
    ];
    for (const [method, path, body, expected] of table) {
      for (const r of ROLES) {
        const res = await h.call(method, path, { token: people[r]!.access, body });
        assert.equal(res.status, expected[r], `${r} ${method} ${path}`);
        if (res.status === 403) assert.equal(res.body.error.code, 'FORBIDDEN');
      }
    }
    const me = await h.call('GET', `${o}/me`, { token: people.viewer!.access });
    assert.ok(me.body.permissions.every((p: string) => p.endsWith(':read')));
  });

  test('another organization’s ids answer 404 on every route, as if they did not exist', async () => {
    const mine = await newOrg(owner, 'Mine');
    const stranger = await h.person('Stranger');
    const theirs = await newOrg(stranger, 'Theirs');
    const key = await h.call('POST', `/orgs/${theirs}/api-keys`, {
      token: stranger.access,
      body: { name: 'k', mode: 'test', scopes: ['jobs:read'] },
    });
    const invite = await h.call('POST', `/orgs/${theirs}/invitations`, {
      token: stranger.access,
      body: { email: 'someone@example.com', role: 'viewer' },
    });
    const t = `/orgs/${theirs}`;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', t],
      ['GET', `${t}/me`],
      ['PATCH', t, { name: 'Hacked' }],
      ['DELETE', t, { confirm: 'Theirs' }],
      ['GET', `${t}/members`],
      ['PATCH', `${t}/members/${stranger.userId}`, { role: 'viewer' }],
      ['DELETE', `${t}/members/${stranger.userId}`],
      ['GET', `${t}/invitations`],
      ['POST', `${t}/invitations`, { email: 'x@example.com', role: 'viewer' }],
      ['DELETE', `${t}/invitations/${invite.body.id}`],
      ['GET', `${t}/billing`],
      ['GET', `${t}/api-keys`],
      ['POST', `${t}/api-keys`, { name: 'k', mode: 'live', scopes: ['jobs:read'] }],
      ['DELETE', `${t}/api-keys/${key.body.apiKey.id}`],
      ['POST', `${t}/activation-codes`, {}],
      // Their ids under my organization.
      ['PATCH', `/orgs/${mine}/members/${stranger.userId}`, { role: 'viewer' }],
      ['DELETE', `/orgs/${mine}/members/${stranger.userId}`],
      ['DELETE', `/orgs/${mine}/invitations/${invite.body.id}`],
      ['DELETE', `/orgs/${mine}/api-keys/${key.body.apiKey.id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await h.call(method, path, { token: owner.access, body });
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    const still = await h.call('GET', `${t}/api-keys`, { token: stranger.access });
    assert.equal(still.body.data[0].revokedAt, null);
    assert.equal((await h.call('GET', t, { token: stranger.access })).body.name, 'Theirs');
    const invitations = await h.call('GET', `${t}/invitations`, { token: stranger.access });
    assert.equal(invitations.body.data.length, 1);
  });

  test('the last owner can neither be demoted nor leave; only owners make owners; members may leave', async () => {
    const id = await newOrg(owner, 'Owners');
    const admin = await h.person('Adm');
    const dev = await h.person('Dev');
    await h.store.organizations.addMember(id, admin.userId, 'admin', h.clock.now());
    await h.store.organizations.addMember(id, dev.userId, 'developer', h.clock.now());
    const o = `/orgs/${id}`;
    const demote = await h.call('PATCH', `${o}/members/${owner.userId}`, {
      token: owner.access,
      body: { role: 'admin' },
    });
    assert.equal(demote.status, 409);
    const leave = await h.call('DELETE', `${o}/members/${owner.userId}`, { token: owner.access });
    assert.equal(leave.status, 409);
    const adminMakesOwner = await h.call('PATCH', `${o}/members/${dev.userId}`, {
      token: admin.access,
      body: { role: 'owner' },
    });
    assert.equal(adminMakesOwner.status, 403);
    const adminDemotesOwner = await h.call('PATCH', `${o}/members/${owner.userId}`, {
      token: admin.access,
      body: { role: 'viewer' },
    });
    assert.equal(adminDemotesOwner.status, 403);
    const adminRemovesOwner = await h.call('DELETE', `${o}/members/${owner.userId}`, {
      token: admin.access,
    });
    assert.equal(adminRemovesOwner.status, 403);
    const adminChangesDev = await h.call('PATCH', `${o}/members/${dev.userId}`, {
      token: admin.access,
      body: { role: 'viewer' },
    });
    assert.equal(adminChangesDev.status, 200);
    assert.equal(adminChangesDev.body.role, 'viewer');
    const bad = await h.call('PATCH', `${o}/members/${dev.userId}`, {
      token: owner.access,
      body: { role: 'boss' },
    });
    assert.deepEqual(paths(bad.body), ['role']);
    const promote = await h.call('PATCH', `${o}/members/${admin.userId}`, {
      token: owner.access,
      body: { role: 'owner' },
    });
    assert.equal(promote.body.role, 'owner');
    const devLeaves = await h.call('DELETE', `${o}/members/${dev.userId}`, { token: dev.access });
    assert.equal(devLeaves.status, 200);
    assert.equal((await h.call('GET', o, { token: dev.access })).status, 404);
    const ownerLeaves = await h.call('DELETE', `${o}/members/${owner.userId}`, {
      token: owner.access,
    });
    assert.equal(ownerLeaves.status, 200, 'another owner remains');
    const members = await h.call('GET', `${o}/members`, { token: admin.access });
    assert.deepEqual(
      members.body.data.map((m: { userId: string; role: string }) => [m.userId, m.role]),
      [[admin.userId, 'owner']],
    );
    assert.ok(members.body.data[0].joinedAt);
  });

  test('an invitation is mailed, bound to the invited address, single use and valid 7 days', async () => {
    const id = await newOrg(owner, 'Invites');
    const invitee = await h.person('Invitee');
    const other = await h.person('Other');
    const o = `/orgs/${id}`;
    const created = await h.call('POST', `${o}/invitations`, {
      token: owner.access,
      body: { email: invitee.email.toUpperCase(), role: 'developer' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.email, invitee.email);
    assert.equal(created.body.invitedBy, owner.userId);
    assert.equal(Date.parse(created.body.expiresAt) - h.clock.now(), 7 * DAY);
    const mail = await h.lastMailTo(invitee.email);
    assert.match(mail.subject, /Invites/);
    assert.ok(mail.links[0]!.startsWith(`${h.publicUrl}/invitations/accept?token=`));
    const listed = await h.call('GET', `${o}/invitations`, { token: owner.access });
    assert.deepEqual(
      listed.body.data.map((i: { id: string }) => i.id),
      [created.body.id],
    );
    const wrongUser = await h.call('POST', '/invitations/accept', {
      token: other.access,
      body: { token: mail.token },
    });
    assert.equal(wrongUser.status, 403);
    const accepted = await h.call('POST', '/invitations/accept', {
      token: invitee.access,
      body: { token: mail.token },
    });
    assert.equal(accepted.status, 200);
    assert.equal(accepted.body.role, 'developer');
    assert.equal(accepted.body.organization.id, id);
    const again = await h.call('POST', '/invitations/accept', {
      token: invitee.access,
      body: { token: mail.token },
    });
    assert.equal(again.status, 400);
    assert.equal(
      (await h.call('GET', `${o}/invitations`, { token: owner.access })).body.data.length,
      0,
    );
    const member = await h.call('POST', `${o}/invitations`, {
      token: owner.access,
      body: { email: invitee.email, role: 'viewer' },
    });
    assert.equal(member.status, 409);

    // Expiry and revocation.
    await h.call('POST', `${o}/invitations`, {
      token: owner.access,
      body: { email: other.email, role: 'viewer' },
    });
    const late = await h.lastMailTo(other.email);
    h.clock.advance(7 * DAY);
    const otherAgain = await h.login(other);
    owner = await h.login(owner);
    const expired = await h.call('POST', '/invitations/accept', {
      token: otherAgain.access,
      body: { token: late.token },
    });
    assert.equal(expired.status, 400);
    const fresh = await h.person('Fresh');
    const revoked = await h.call('POST', `${o}/invitations`, {
      token: owner.access,
      body: { email: fresh.email, role: 'viewer' },
    });
    const revokedMail = await h.lastMailTo(fresh.email);
    const del = await h.call('DELETE', `${o}/invitations/${revoked.body.id}`, {
      token: owner.access,
    });
    assert.equal(del.status, 200);
    const afterRevoke = await h.call('POST', '/invitations/accept', {
      token: fresh.access,
      body: { token: revokedMail.token },
    });
    assert.equal(afterRevoke.status, 400);
    for (const [token, status] of [
      ['t'.repeat(9), 400],
      ['t'.repeat(201), 400],
    ] as const) {
      const res = await h.call('POST', '/invitations/accept', {
        token: fresh.access,
        body: { token },
      });
      assert.equal(res.status, status);
      assert.deepEqual(paths(res.body), ['token']);
    }
  });

  test('an inviter grants no role above their own: admins invite admins, not owners', async () => {
    const id = await newOrg(owner, 'Ranks');
    const admin = await h.person('Ranker');
    await h.store.organizations.addMember(id, admin.userId, 'admin', h.clock.now());
    const o = `/orgs/${id}/invitations`;
    const asOwner = await h.call('POST', o, {
      token: admin.access,
      body: { email: 'new-owner@example.com', role: 'owner' },
    });
    assert.equal(asOwner.status, 403);
    const asAdmin = await h.call('POST', o, {
      token: admin.access,
      body: { email: 'new-admin@example.com', role: 'admin' },
    });
    assert.equal(asAdmin.status, 201);
    const byOwner = await h.call('POST', o, {
      token: owner.access,
      body: { email: 'co-owner@example.com', role: 'owner' },
    });
    assert.equal(byOwner.status, 201);
    const edges = await h.call('POST', o, {
      token: owner.access,
      body: { email: `${'a'.repeat(64)}@${'b'.repeat(186)}.com`, role: 'chief' },
    });
    assert.deepEqual(paths(edges.body), ['email', 'role']);
  });

  test('billing shows the plan, its quota, live jobs this month and the period', async () => {
    const id = await newOrg(owner, 'Billing');
    h.clock.set(Math.max(h.clock.now(), Date.parse('2026-03-31T23:59:00.000Z')));
    owner = await h.login(owner);
    const res = await h.call('GET', `/orgs/${id}/billing`, { token: owner.access });
    assert.deepEqual(res.body, {
      plan: 'free',
      monthlyQuota: 1000,
      usedThisMonth: 0,
      periodStart: '2026-03-01T00:00:00.000Z',
      periodEnd: '2026-04-01T00:00:00.000Z',
    });
    h.clock.advance(60_000);
    const april = await h.call('GET', `/orgs/${id}/billing`, { token: owner.access });
    assert.equal(april.body.periodStart, '2026-04-01T00:00:00.000Z');
    assert.equal(april.body.periodEnd, '2026-05-01T00:00:00.000Z');
    await h.store.organizations.update(id, { plan: 'enterprise' }, h.clock.now());
    const unlimited = await h.call('GET', `/orgs/${id}/billing`, { token: owner.access });
    assert.equal(unlimited.body.monthlyQuota, null);
  });

  test('an API key is shown once, works at once and stops at once when revoked', async () => {
    const id = await newOrg(owner, 'Keys');
    const created = await h.call('POST', `/orgs/${id}/api-keys`, {
      token: owner.access,
      body: { name: 'POS', mode: 'live', scopes: ['jobs:read', 'printers:read'] },
    });
    assert.equal(created.status, 201);
    assert.match(created.body.key, /^pw_live_[A-Za-z0-9]{32}$/);
    assert.equal(created.body.apiKey.prefix, created.body.key.slice(0, 12));
    const list = await h.call('GET', `/orgs/${id}/api-keys`, { token: owner.access });
    assert.ok(!JSON.stringify(list.body).includes(created.body.key));
    const me = await h.call('GET', '/v1/me', { token: created.body.key });
    assert.equal(me.status, 200);
    const del = await h.call('DELETE', `/orgs/${id}/api-keys/${created.body.apiKey.id}`, {
      token: owner.access,
    });
    assert.equal(del.status, 200);
    assert.equal((await h.call('GET', '/v1/me', { token: created.body.key })).status, 401);
    const bad = await h.call('POST', `/orgs/${id}/api-keys`, {
      token: owner.access,
      body: { name: '', mode: 'prod', scopes: ['jobs:read', 'jobs:read', 'root'] },
    });
    assert.deepEqual(paths(bad.body), ['mode', 'name', 'scopes[2]']);
    for (const scopes of [[], ['jobs:read', 'jobs:read']]) {
      const res = await h.call('POST', `/orgs/${id}/api-keys`, {
        token: owner.access,
        body: { name: 'n'.repeat(100), mode: 'test', scopes },
      });
      assert.deepEqual(paths(res.body), ['scopes']);
    }
    const longName = await h.call('POST', `/orgs/${id}/api-keys`, {
      token: owner.access,
      body: { name: 'n'.repeat(101), mode: 'test', scopes: ['jobs:read'] },
    });
    assert.deepEqual(paths(longName.body), ['name']);
  });

  test('an activation code is single use for 24 hours', async () => {
    const id = await newOrg(owner, 'Codes');
    const res = await h.call('POST', `/orgs/${id}/activation-codes`, {
      token: owner.access,
      body: { name: 'Front desk' },
    });
    assert.equal(res.status, 201);
    assert.match(res.body.code, /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    assert.equal(Date.parse(res.body.expiresAt) - h.clock.now(), DAY);
    const noBody = await h.call('POST', `/orgs/${id}/activation-codes`, { token: owner.access });
    assert.equal(noBody.status, 201);
    assert.notEqual(noBody.body.code, res.body.code);
  });
});
