import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashSecret } from '../../services/api-keys.js';
import { ROLES } from '../../accounts/permissions.js';
import { startDashboard, type DashboardHarness, type Person } from '../../testing/dashboard.js';

describe('dashboard devices', () => {
  let h: DashboardHarness;
  let owner: Person;
  let orgId: string;
  before(async () => {
    h = await startDashboard();
    owner = await h.person('DevOwner');
    orgId = (await h.call('POST', '/orgs', { token: owner.access, body: { name: 'Devices' } })).body
      .id;
  });
  after(() => h.close());

  async function activate(name: string): Promise<{ deviceId: string; deviceToken: string }> {
    const code = await h.call('POST', `/orgs/${orgId}/activation-codes`, {
      token: owner.access,
      body: { name },
    });
    const res = await h.call('POST', '/agent/v1/activate', {
      body: { code: code.body.code, name, os: 'linux', arch: 'x64', agentVersion: '1.0.0' },
    });
    assert.equal(res.status, 201);
    return res.body;
  }

  test('an activation code from the dashboard connects an agent once; the device is listed', async () => {
    const code = await h.call('POST', `/orgs/${orgId}/activation-codes`, { token: owner.access });
    const body = {
      code: code.body.code,
      name: 'Till 1',
      os: 'linux',
      arch: 'x64',
      agentVersion: '1.0.0',
    };
    assert.equal((await h.call('POST', '/agent/v1/activate', { body })).status, 201);
    assert.notEqual((await h.call('POST', '/agent/v1/activate', { body })).status, 201);
    const list = await h.call('GET', `/orgs/${orgId}/devices`, { token: owner.access });
    assert.ok(list.body.data.some((d: { name: string }) => d.name === 'Till 1'));
    assert.ok(list.body.data.every((d: { os: string }) => d.os !== 'sandbox'));
  });

  test('a device is renamed and grouped, with its field rules', async () => {
    const { deviceId } = await activate('Back office');
    const path = `/orgs/${orgId}/devices/${deviceId}`;
    const res = await h.call('PATCH', path, {
      token: owner.access,
      body: { name: 'n'.repeat(100), groupId: 'kitchen' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'n'.repeat(100));
    assert.equal(res.body.groupId, 'kitchen');
    const ungrouped = await h.call('PATCH', path, { token: owner.access, body: { groupId: null } });
    assert.equal(ungrouped.body.groupId, null);
    assert.equal(ungrouped.body.name, 'n'.repeat(100));
    const bad = await h.call('PATCH', path, {
      token: owner.access,
      body: { name: 'n'.repeat(101), groupId: '' },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.error.details.map((d: { path: string }) => d.path).sort(), [
      'groupId',
      'name',
    ]);
  });

  test('deactivating revokes the device token at once and removes it from the list', async () => {
    const { deviceId, deviceToken } = await activate('Old till');
    assert.ok(await h.store.devices.findByTokenHash(hashSecret(deviceToken)));
    const res = await h.call('POST', `/orgs/${orgId}/devices/${deviceId}/deactivate`, {
      token: owner.access,
    });
    assert.equal(res.status, 200);
    assert.equal(await h.store.devices.findByTokenHash(hashSecret(deviceToken)), undefined);
    const list = await h.call('GET', `/orgs/${orgId}/devices`, { token: owner.access });
    assert.ok(!list.body.data.some((d: { id: string }) => d.id === deviceId));
    const again = await h.call('POST', `/orgs/${orgId}/devices/${deviceId}/deactivate`, {
      token: owner.access,
    });
    assert.equal(again.status, 404);
  });

  test('viewers read devices, developers and above change them, other organizations see 404', async () => {
    const { deviceId } = await activate('Roles');
    const people: Record<string, Person> = { owner };
    for (const r of ROLES.filter((x) => x !== 'owner')) {
      people[r] = await h.person(`d${r}`);
      await h.store.organizations.addMember(orgId, people[r]!.userId, r, h.clock.now());
    }
    const d = `/orgs/${orgId}/devices`;
    const table: Array<[string, string, unknown, Record<string, number>]> = [
      ['GET', d, undefined, { owner: 200, admin: 200, developer: 200, viewer: 200 }],
      [
        'PATCH',
        `${d}/${deviceId}`,
        { name: '' },
        { owner: 400, admin: 400, developer: 400, viewer: 403 },
      ],
      [
        'POST',
        `${d}/dev_nobody/deactivate`,
        undefined,
        { owner: 404, admin: 404, developer: 404, viewer: 403 },
      ],
    ];
    for (const [method, path, body, expected] of table) {
      for (const r of ROLES) {
        const res = await h.call(method, path, { token: people[r]!.access, body });
        assert.equal(res.status, expected[r], `${r} ${method} ${path}`);
      }
    }
    const stranger = await h.person('DevStranger');
    const theirs = (
      await h.call('POST', '/orgs', { token: stranger.access, body: { name: 'Theirs' } })
    ).body.id;
    for (const [method, path, body] of [
      ['GET', d, undefined],
      ['PATCH', `${d}/${deviceId}`, { name: 'Mine now' }],
      ['POST', `${d}/${deviceId}/deactivate`, undefined],
      ['PATCH', `/orgs/${theirs}/devices/${deviceId}`, { name: 'Mine now' }],
      ['POST', `/orgs/${theirs}/devices/${deviceId}/deactivate`, undefined],
    ] as const) {
      const res = await h.call(method, path, { token: stranger.access, body });
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    const list = await h.call('GET', d, { token: owner.access });
    assert.equal(list.body.data.find((x: { id: string }) => x.id === deviceId).name, 'Roles');
  });
});
