import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ReportedPrinter } from '../../storage/devices.js';
import { storeKinds } from '../../testing/stores.js';
import { startDashboard, type DashboardHarness, type Person } from '../../testing/dashboard.js';

const reported = (agentPrinterId: string, status = 'online'): ReportedPrinter => ({
  agentPrinterId,
  name: `Printer ${agentPrinterId}`,
  alias: null,
  connection: 'tcp',
  kind: 'receipt',
  paper: '80mm',
  codepage: 'CP437',
  capabilities: ['cut', 'status'],
  isDefault: false,
  status,
});

type Group = { id: string; name: string; printerIds: string[]; strategy: string };

for (const { kind, skip } of await storeKinds()) {
  describe(`printer groups API (${kind})`, { skip }, () => {
    let h: DashboardHarness;
    let owner: Person;
    let orgId: string;
    let deviceId: string;
    /** 21 printers of the organization, in the order they were reported. */
    let printers: string[] = [];
    let foreignPrinter: string;
    let key: string;

    async function activate(org: string, token: string): Promise<string> {
      const code = await h.call('POST', `/orgs/${org}/activation-codes`, { token });
      const res = await h.call('POST', '/agent/v1/activate', {
        body: {
          code: code.body.code,
          name: 'Till',
          os: 'linux',
          arch: 'x64',
          agentVersion: '1.0.1',
        },
      });
      return res.body.deviceId;
    }

    before(async () => {
      h = await startDashboard({ kind });
      owner = await h.person('GroupOwner');
      orgId = (await h.call('POST', '/orgs', { token: owner.access, body: { name: 'Groups' } }))
        .body.id;
      deviceId = await activate(orgId, owner.access);
      const ids = Array.from({ length: 21 }, (_, i) => `p${String(i).padStart(2, '0')}`);
      const stored = await h.store.devices.upsertPrinters(
        orgId,
        deviceId,
        ids.map((id) => reported(id)),
        h.clock.now(),
      );
      const byAgentId = new Map(stored.map((c) => [c.printer.agentPrinterId, c.printer.id]));
      printers = ids.map((id) => byAgentId.get(id)!);
      const other = await h.person('OtherOwner');
      const otherOrg = (
        await h.call('POST', '/orgs', { token: other.access, body: { name: 'Elsewhere' } })
      ).body.id;
      const otherDevice = await activate(otherOrg, other.access);
      const [theirs] = await h.store.devices.upsertPrinters(
        otherOrg,
        otherDevice,
        [reported('x')],
        h.clock.now(),
      );
      foreignPrinter = theirs!.printer.id;
      key = (
        await h.call('POST', `/orgs/${orgId}/api-keys`, {
          token: owner.access,
          body: { name: 'pos', mode: 'live', scopes: ['printers:read', 'jobs:write', 'jobs:read'] },
        })
      ).body.key;
    });
    after(() => h.close());

    const create = (body: unknown, token = owner.access) =>
      h.call('POST', `/orgs/${orgId}/printer-groups`, { token, body });
    const paths = (res: { body: { error: { details: Array<{ path: string }> } } }) =>
      res.body.error.details.map((d) => d.path);
    const v1 = (method: string, path: string, body?: unknown) =>
      h.call(method, path, { headers: { authorization: `Bearer ${key}` }, body });

    test('a group is created with its members in order and read back by the dashboard and /v1', async () => {
      const res = await create({
        name: 'Kitchen',
        printerIds: [printers[2], printers[0]],
        strategy: 'failover',
      });
      assert.equal(res.status, 201);
      const group = res.body as Group;
      assert.match(group.id, /^grp_/);
      assert.deepEqual(group.printerIds, [printers[2], printers[0]]);
      assert.equal(group.strategy, 'failover');
      assert.ok(!Number.isNaN(Date.parse(res.body.createdAt)));
      const listed = await h.call('GET', `/orgs/${orgId}/printer-groups`, { token: owner.access });
      assert.deepEqual(listed.body.data, [group]);
      assert.equal(listed.body.nextCursor, null);
      assert.deepEqual((await v1('GET', '/v1/printer-groups')).body.data, [group]);
      assert.deepEqual((await v1('GET', `/v1/printer-groups/${group.id}`)).body, group);
      const missing = await v1('GET', '/v1/printer-groups/grp_nope');
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.code, 'NOT_FOUND');
    });

    test('1 and 20 members are accepted; 0 and 21 are refused naming printerIds', async () => {
      assert.equal(
        (await create({ name: 'One', printerIds: [printers[0]], strategy: 'failover' })).status,
        201,
      );
      const twenty = await create({
        name: 'Twenty',
        printerIds: printers.slice(0, 20),
        strategy: 'round-robin',
      });
      assert.equal(twenty.status, 201);
      assert.equal(twenty.body.printerIds.length, 20);
      for (const ids of [[], printers.slice(0, 21)]) {
        const res = await create({ name: 'Bad', printerIds: ids, strategy: 'failover' });
        assert.equal(res.status, 400);
        assert.equal(res.body.error.code, 'VALIDATION_FAILED');
        assert.deepEqual(paths(res), ['printerIds']);
      }
    });

    test('duplicates, unknown and foreign printers, a bad strategy and an empty name are refused, each named', async () => {
      const dup = await create({
        name: 'Dup',
        printerIds: [printers[0], printers[1], printers[0]],
        strategy: 'failover',
      });
      assert.equal(dup.status, 400);
      assert.deepEqual(paths(dup), ['printerIds[2]']);
      assert.equal(dup.body.error.details[0].rule, 'unique');
      const foreign = await create({
        name: 'Foreign',
        printerIds: [printers[0], foreignPrinter, 'prn_unknown'],
        strategy: 'failover',
      });
      assert.equal(foreign.status, 400);
      assert.deepEqual(paths(foreign), ['printerIds[1]', 'printerIds[2]']);
      const bad = await create({ name: '', printerIds: [printers[0]], strategy: 'random' });
      assert.equal(bad.status, 400);
      assert.deepEqual(paths(bad).sort(), ['name', 'strategy']);
    });

    test('PATCH reorders the members, renames and changes the strategy; unknown members are refused', async () => {
      const group = (
        await create({ name: 'Bar', printerIds: [printers[0], printers[1]], strategy: 'failover' })
      ).body as Group;
      const path = `/orgs/${orgId}/printer-groups/${group.id}`;
      const res = await h.call('PATCH', path, {
        token: owner.access,
        body: { printerIds: [printers[1], printers[3], printers[0]], strategy: 'round-robin' },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.printerIds, [printers[1], printers[3], printers[0]]);
      assert.equal(res.body.strategy, 'round-robin');
      assert.equal(res.body.name, 'Bar');
      const renamed = await h.call('PATCH', path, {
        token: owner.access,
        body: { name: 'Terrace' },
      });
      assert.equal(renamed.body.name, 'Terrace');
      assert.deepEqual(renamed.body.printerIds, [printers[1], printers[3], printers[0]]);
      const foreign = await h.call('PATCH', path, {
        token: owner.access,
        body: { printerIds: [foreignPrinter] },
      });
      assert.equal(foreign.status, 400);
      assert.deepEqual(paths(foreign), ['printerIds[0]']);
      const missing = await h.call('PATCH', `/orgs/${orgId}/printer-groups/grp_nope`, {
        token: owner.access,
        body: { name: 'x' },
      });
      assert.equal(missing.status, 404);
    });

    test('a viewer reads groups but may not write them; a developer may', async () => {
      for (const [role, writes] of [
        ['viewer', false],
        ['developer', true],
      ] as const) {
        const person = await h.person(`Group${role}`);
        await h.store.organizations.addMember(orgId, person.userId, role, h.clock.now());
        const res = await create(
          { name: role, printerIds: [printers[0]], strategy: 'failover' },
          person.access,
        );
        assert.equal(res.status, writes ? 201 : 403, role);
        const list = await h.call('GET', `/orgs/${orgId}/printer-groups`, { token: person.access });
        assert.equal(list.status, 200);
      }
    });

    test('a job names a group: both targets or an unknown group is INVALID_JOB; no member ready, it waits without a printer', async () => {
      const group = (
        await create({
          name: 'Tills',
          printerIds: [printers[4], printers[5]],
          strategy: 'failover',
        })
      ).body as Group;
      const both = await v1('POST', '/v1/jobs', {
        printerGroupId: group.id,
        printerId: printers[4],
        type: 'text',
        data: 'x',
      });
      assert.equal(both.status, 400);
      assert.equal(both.body.error.code, 'INVALID_JOB');
      assert.deepEqual(paths(both), ['printerGroupId']);
      const unknown = await v1('POST', '/v1/jobs', {
        printerGroupId: 'grp_nope',
        type: 'text',
        data: 'x',
      });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error.code, 'INVALID_JOB');
      assert.deepEqual(paths(unknown), ['printerGroupId']);
      // The device never connected: no member is ready.
      const waiting = await v1('POST', '/v1/jobs', {
        printerGroupId: group.id,
        type: 'text',
        data: 'x',
      });
      assert.equal(waiting.status, 201);
      assert.equal(waiting.body.printerGroupId, group.id);
      assert.equal(waiting.body.printerId, null);
      assert.equal(waiting.body.state, 'queued');
      assert.deepEqual(waiting.body.movedFrom, []);
      // Online, with the first member out of paper: the second takes it.
      await h.store.devices.setPresence(orgId, deviceId, 'online', h.clock.now());
      await h.store.devices.setPrinterStatus(orgId, deviceId, 'p04', 'paper_out', h.clock.now());
      const routed = await v1('POST', '/v1/jobs', {
        printerGroupId: group.id,
        type: 'text',
        data: 'x',
      });
      assert.equal(routed.status, 201);
      assert.equal(routed.body.printerId, printers[5]);
      assert.equal(routed.body.deviceId, deviceId);
      const read = await v1('GET', `/v1/jobs/${routed.body.id}`);
      assert.equal(read.body.printerGroupId, group.id);
      assert.equal(read.body.printerId, printers[5]);
    });

    test('a template job names a group', async () => {
      const group = (
        await create({ name: 'Labels', printerIds: [printers[6]], strategy: 'failover' })
      ).body as Group;
      const template = await h.call('POST', `/orgs/${orgId}/templates`, {
        token: owner.access,
        body: {
          name: 'Hello',
          type: 'receipt',
          content: '{"blocks":[{"type":"text","value":"Hi {{name}}"}]}',
        },
      });
      assert.equal(template.status, 201, JSON.stringify(template.body));
      const job = await v1('POST', '/v1/jobs', {
        printerGroupId: group.id,
        templateId: template.body.id,
        data: { name: 'Ana' },
      });
      assert.equal(job.status, 201, JSON.stringify(job.body));
      assert.equal(job.body.printerGroupId, group.id);
      assert.equal(job.body.printerId, printers[6]);
    });

    test('DELETE removes the group; its waiting jobs fail with PRINTER_NOT_FOUND, jobs with a member stay', async () => {
      const group = (
        await create({ name: 'Gone', printerIds: [printers[7], printers[8]], strategy: 'failover' })
      ).body as Group;
      await h.store.devices.setPrinterStatus(orgId, deviceId, 'p07', 'cover_open', h.clock.now());
      await h.store.devices.setPrinterStatus(orgId, deviceId, 'p08', 'cover_open', h.clock.now());
      const waiting = await v1('POST', '/v1/jobs', {
        printerGroupId: group.id,
        type: 'text',
        data: 'w',
      });
      assert.equal(waiting.body.printerId, null);
      await h.store.devices.setPrinterStatus(orgId, deviceId, 'p08', 'online', h.clock.now());
      const placed = await v1('POST', '/v1/jobs', {
        printerGroupId: group.id,
        type: 'text',
        data: 'p',
      });
      assert.equal(placed.body.printerId, printers[8]);
      const path = `/orgs/${orgId}/printer-groups/${group.id}`;
      const res = await h.call('DELETE', path, { token: owner.access });
      assert.equal(res.status, 200);
      assert.equal((await h.call('GET', path, { token: owner.access })).status, 404);
      assert.equal((await h.call('DELETE', path, { token: owner.access })).status, 404);
      const failed = await v1('GET', `/v1/jobs/${waiting.body.id}`);
      assert.equal(failed.body.state, 'failed');
      assert.equal(failed.body.errorCode, 'PRINTER_NOT_FOUND');
      const kept = await v1('GET', `/v1/jobs/${placed.body.id}`);
      assert.equal(kept.body.state, 'queued');
      assert.equal(kept.body.printerId, printers[8]);
    });

    test('the job list filters by printerGroupId whichever member holds the job, pages by cursor, and names a malformed id', async () => {
      const group = (
        await create({ name: 'Bar', printerIds: [printers[9], printers[10]], strategy: 'failover' })
      ).body as Group;
      const other = (
        await create({ name: 'Kitchen', printerIds: [printers[9]], strategy: 'failover' })
      ).body as Group;
      await h.store.devices.setPresence(orgId, deviceId, 'online', h.clock.now());
      const send = async (body: Record<string, unknown>) => {
        h.clock.advance(1000);
        const res = await v1('POST', '/v1/jobs', { type: 'text', data: 'x', ...body });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.id as string;
      };
      const first = await send({ printerGroupId: group.id });
      await send({ printerId: printers[9] });
      await send({ printerGroupId: other.id });
      // The first member goes out of paper: the group's next job goes to the second.
      await h.store.devices.setPrinterStatus(orgId, deviceId, 'p09', 'paper_out', h.clock.now());
      const second = await send({ printerGroupId: group.id });
      const third = await send({ printerGroupId: group.id });
      const ids = (res: { body: { data: Array<{ id: string }> } }) =>
        res.body.data.map((j) => j.id);

      const all = await v1('GET', `/v1/jobs?printerGroupId=${group.id}`);
      assert.equal(all.status, 200, JSON.stringify(all.body));
      assert.deepEqual(ids(all), [third, second, first]);
      assert.ok(
        all.body.data.every((j: { printerGroupId: string }) => j.printerGroupId === group.id),
      );

      const page1 = await v1('GET', `/v1/jobs?printerGroupId=${group.id}&limit=2`);
      assert.deepEqual(ids(page1), [third, second]);
      await send({ printerGroupId: group.id }); // a newer job does not shift the next page
      const page2 = await v1(
        'GET',
        `/v1/jobs?printerGroupId=${group.id}&limit=2&cursor=${page1.body.nextCursor}`,
      );
      assert.deepEqual(ids(page2), [first]);
      assert.equal(page2.body.nextCursor, null);

      const withState = await v1(
        'GET',
        `/v1/jobs?printerGroupId=${group.id}&printerId=${printers[10]}&state=queued`,
      );
      assert.equal(withState.body.data.length, 3, 'filters combine');

      const dashboard = await h.call('GET', `/orgs/${orgId}/jobs?printerGroupId=${other.id}`, {
        token: owner.access,
      });
      assert.equal(dashboard.status, 200);
      assert.equal(dashboard.body.data.length, 1);
      assert.equal(dashboard.body.data[0].printerGroupId, other.id);

      // An id no group of the organization has: an empty list, as for an unknown printerId.
      const unknown = await v1('GET', '/v1/jobs?printerGroupId=grp_00000000000000000000000000');
      assert.equal(unknown.status, 200);
      assert.deepEqual(unknown.body.data, []);
      for (const bad of ['grp_nope', 'prn_00000000000000000000000000', '']) {
        for (const res of [
          await v1('GET', `/v1/jobs?printerGroupId=${bad}`),
          await h.call('GET', `/orgs/${orgId}/jobs?printerGroupId=${bad}`, {
            token: owner.access,
          }),
        ]) {
          assert.equal(res.status, 400, bad);
          assert.equal(res.body.error.code, 'VALIDATION_FAILED');
          assert.deepEqual(paths(res), ['printerGroupId']);
        }
      }
    });
  });
}
