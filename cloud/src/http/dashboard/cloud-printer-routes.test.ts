import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ROLES } from '../../accounts/permissions.js';
import { startDashboard, type DashboardHarness, type Person } from '../../testing/dashboard.js';

describe('dashboard: printers that connect by themselves', () => {
  let h: DashboardHarness;
  let owner: Person;
  let orgId: string;
  before(async () => {
    h = await startDashboard();
    owner = await h.person('PullOwner');
    orgId = (await h.call('POST', '/orgs', { token: owner.access, body: { name: 'Pull' } })).body
      .id;
  });
  after(() => h.close());

  test('adding one answers its device, its printer and the address with its secret', async () => {
    const res = await h.call('POST', `/orgs/${orgId}/cloud-printers`, {
      token: owner.access,
      body: { name: 'Kitchen Star', protocol: 'cloudprnt' },
    });
    assert.equal(res.status, 201);
    const { device, printer, url } = res.body;
    assert.equal(device.os, 'printer');
    assert.equal(device.status, 'offline');
    assert.equal(printer.deviceId, device.id);
    assert.equal(printer.connection, 'cloudprnt');
    assert.equal(printer.kind, 'receipt');
    assert.equal(printer.paper, '80mm');
    // What the Printers page shows under "Can do" (pdf, html, zpl and epl are refused for it).
    assert.deepEqual(printer.capabilities, ['receipt', 'text', 'image', 'status', 'cut', 'drawer']);
    assert.match(
      url,
      /^https:\/\/print\.example\.com\/printer-pull\/cloudprnt\/pwp_[A-Za-z0-9_-]{32}$/,
    );

    const sdp = await h.call('POST', `/orgs/${orgId}/cloud-printers`, {
      token: owner.access,
      body: { name: 'Bar Epson', protocol: 'sdp', paper: '58mm' },
    });
    assert.equal(sdp.status, 201);
    assert.equal(sdp.body.printer.connection, 'sdp');
    assert.equal(sdp.body.printer.paper, '58mm');
    assert.match(sdp.body.url, /\/printer-pull\/sdp\/pwp_/);
    assert.notEqual(sdp.body.url.split('/').pop(), url.split('/').pop());

    const devices = await h.call('GET', `/orgs/${orgId}/devices`, { token: owner.access });
    assert.ok(devices.body.data.some((d: { id: string }) => d.id === device.id));
    const printers = await h.call('GET', `/orgs/${orgId}/printers`, { token: owner.access });
    assert.ok(printers.body.data.some((p: { id: string }) => p.id === printer.id));
  });

  test('each field is checked at its edge and named', async () => {
    const post = (body: unknown) =>
      h.call('POST', `/orgs/${orgId}/cloud-printers`, { token: owner.access, body });
    assert.equal((await post({ name: 'n'.repeat(100), protocol: 'sdp' })).status, 201);
    const bad = await post({ name: 'n'.repeat(101), protocol: 'escpos', paper: '4x6in' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'VALIDATION_FAILED');
    assert.deepEqual(bad.body.error.details.map((d: { path: string }) => d.path).sort(), [
      'name',
      'paper',
      'protocol',
    ]);
    const empty = await post({ name: '', protocol: 'cloudprnt' });
    assert.equal(empty.status, 400);
    assert.deepEqual(
      empty.body.error.details.map((d: { path: string }) => d.path),
      ['name'],
    );
  });

  test('removing one removes its device and printer; a second removal is 404', async () => {
    const created = await h.call('POST', `/orgs/${orgId}/cloud-printers`, {
      token: owner.access,
      body: { name: 'Gone soon', protocol: 'cloudprnt' },
    });
    const path = `/orgs/${orgId}/cloud-printers/${created.body.printer.id}`;
    assert.equal((await h.call('DELETE', path, { token: owner.access })).status, 200);
    assert.equal((await h.call('DELETE', path, { token: owner.access })).status, 404);
    const printers = await h.call('GET', `/orgs/${orgId}/printers`, { token: owner.access });
    assert.ok(!printers.body.data.some((p: { id: string }) => p.id === created.body.printer.id));
    const devices = await h.call('GET', `/orgs/${orgId}/devices`, { token: owner.access });
    assert.ok(!devices.body.data.some((d: { id: string }) => d.id === created.body.device.id));
  });

  test('owners, admins and developers add and remove them; viewers and strangers cannot', async () => {
    const people: Record<string, Person> = { owner };
    for (const r of ROLES.filter((x) => x !== 'owner')) {
      people[r] = await h.person(`cp${r}`);
      await h.store.organizations.addMember(orgId, people[r]!.userId, r, h.clock.now());
    }
    const expected: Record<string, number> = {
      owner: 201,
      admin: 201,
      developer: 201,
      viewer: 403,
    };
    for (const r of ROLES) {
      const res = await h.call('POST', `/orgs/${orgId}/cloud-printers`, {
        token: people[r]!.access,
        body: { name: `By ${r}`, protocol: 'sdp' },
      });
      assert.equal(res.status, expected[r], r);
    }
    const victim = await h.call('POST', `/orgs/${orgId}/cloud-printers`, {
      token: owner.access,
      body: { name: 'Victim', protocol: 'sdp' },
    });
    const path = `/orgs/${orgId}/cloud-printers/${victim.body.printer.id}`;
    assert.equal((await h.call('DELETE', path, { token: people.viewer!.access })).status, 403);
    const stranger = await h.person('CpStranger');
    const theirs = (
      await h.call('POST', '/orgs', { token: stranger.access, body: { name: 'Theirs' } })
    ).body.id;
    assert.equal((await h.call('DELETE', path, { token: stranger.access })).status, 404);
    const foreign = `/orgs/${theirs}/cloud-printers/${victim.body.printer.id}`;
    assert.equal((await h.call('DELETE', foreign, { token: stranger.access })).status, 404);
    assert.equal((await h.call('DELETE', path, { token: people.developer!.access })).status, 200);
  });
});
