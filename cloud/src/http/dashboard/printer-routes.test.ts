import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BusEvent } from '../../bus/events.js';
import type { ReportedPrinter } from '../../storage/devices.js';
import { printersConfig } from '../../services/agent-config.js';
import { ROLES } from '../../accounts/permissions.js';
import { storeKinds } from '../../testing/stores.js';
import { startDashboard, type DashboardHarness, type Person } from '../../testing/dashboard.js';

const reported = (
  agentPrinterId: string,
  over: Partial<ReportedPrinter> = {},
): ReportedPrinter => ({
  agentPrinterId,
  name: `Printer ${agentPrinterId}`,
  alias: null,
  connection: 'tcp',
  kind: 'receipt',
  paper: '80mm',
  codepage: 'CP437',
  capabilities: ['cut', 'status'],
  isDefault: false,
  status: 'online',
  ...over,
});

for (const { kind, skip } of await storeKinds()) {
  describe(`dashboard printers (${kind})`, { skip }, () => {
    let h: DashboardHarness;
    let owner: Person;
    let orgId: string;
    let deviceId: string;
    const events: BusEvent[] = [];
    before(async () => {
      h = await startDashboard({ kind });
      owner = await h.person('PrinterOwner');
      orgId = (await h.call('POST', '/orgs', { token: owner.access, body: { name: 'Printers' } }))
        .body.id;
      const code = await h.call('POST', `/orgs/${orgId}/activation-codes`, { token: owner.access });
      deviceId = (
        await h.call('POST', '/agent/v1/activate', {
          body: {
            code: code.body.code,
            name: 'Till',
            os: 'linux',
            arch: 'x64',
            agentVersion: '1.0.1',
          },
        })
      ).body.deviceId;
      // What an agent reports when it connects (the gateway's write).
      await h.store.devices.upsertPrinters(
        orgId,
        deviceId,
        [reported('a', { isDefault: true }), reported('b', { alias: 'kitchen', kind: 'label' })],
        h.clock.now(),
      );
      await h.bus.subscribe((e) => events.push(e));
    });
    after(() => h.close());

    const list = async (query = '') =>
      (await h.call('GET', `/orgs/${orgId}/printers${query}`, { token: owner.access })).body
        .data as Array<
        Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
      >;

    test('the list shows each printer with its device, status and defaults; test mode adds the sandbox', async () => {
      const live = await list();
      assert.equal(live.length, 2);
      const a = live.find((p) => p.agentPrinterId === 'a')!;
      assert.equal(a.device.name, 'Till');
      assert.equal(a.status, 'online');
      assert.deepEqual(a.defaults, { paper: null, dpi: null, codepage: null, cut: null });
      assert.ok((await list('?mode=test')).some((p) => p.sandbox));
    });

    test('each printer says how it is reached; a report from an older agent keeps what was said', async () => {
      const twin = (agentPrinterId: string, reach: ReportedPrinter['reach']) =>
        reported(agentPrinterId, { name: 'EPSON TM-T20III', connection: reach!.via, reach });
      await h.store.devices.upsertPrinters(
        orgId,
        deviceId,
        [
          reported('a', { isDefault: true }),
          reported('b', { alias: 'kitchen', kind: 'label' }),
          twin('c', { via: 'tcp', host: '192.168.1.40', port: 9100 }),
          twin('d', { via: 'usb', vendorId: '04b8', productId: '0e28', serial: 'X7PL000123' }),
        ],
        h.clock.now(),
      );
      const byId = async (id: string) => (await list()).find((p) => p.agentPrinterId === id)!;
      assert.deepEqual((await byId('c')).reach, { via: 'tcp', host: '192.168.1.40', port: 9100 });
      assert.deepEqual((await byId('d')).reach, {
        via: 'usb',
        vendorId: '04b8',
        productId: '0e28',
        serial: 'X7PL000123',
      });
      assert.equal((await byId('a')).reach, null, 'never reported');
      // An agent older than `reach` reports the same printer again.
      await h.store.devices.upsertPrinters(
        orgId,
        deviceId,
        [reported('c', { name: 'EPSON TM-T20III', status: 'paper_out' })],
        h.clock.now(),
      );
      assert.deepEqual((await byId('c')).reach, { via: 'tcp', host: '192.168.1.40', port: 9100 });
      const sandbox = (await list('?mode=test')).find((p) => p.sandbox)!;
      assert.equal(sandbox.reach, null);
      // Back to the two printers the other tests expect (the twins hidden on the agent).
      await h.store.devices.upsertPrinters(
        orgId,
        deviceId,
        [reported('a', { isDefault: true }), reported('b', { alias: 'kitchen', kind: 'label' })],
        h.clock.now(),
        ['c', 'd'],
      );
    });

    test('a printer that connects by itself is reached by its protocol, with its last poll and never its address', async () => {
      const created = await h.call('POST', `/orgs/${orgId}/cloud-printers`, {
        token: owner.access,
        body: { name: 'Bar', protocol: 'sdp' },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.printer.id as string;
      const bar = async () => (await list()).find((p) => p.id === id)!;
      assert.deepEqual((await bar()).reach, { via: 'sdp', lastPollAt: null });
      await h.store.cloudPrinters.recordPoll(
        { printerId: id, deviceId: created.body.device.id as string },
        h.clock.now(),
      );
      assert.deepEqual((await bar()).reach, {
        via: 'sdp',
        lastPollAt: new Date(h.clock.now()).toISOString(),
      });
      const secret = new URL(created.body.url as string).pathname.split('/').pop()!;
      assert.equal(JSON.stringify(await list()).includes(secret), false);
      await h.call('DELETE', `/orgs/${orgId}/cloud-printers/${id}`, { token: owner.access });
    });

    test('alias, default and defaults are kept over the agent’s report and pushed to the agent', async () => {
      const b = (await list()).find((p) => p.agentPrinterId === 'b')!;
      const seen = events.length;
      const res = await h.call('PATCH', `/orgs/${orgId}/printers/${b.id}`, {
        token: owner.access,
        body: { alias: 'bar', isDefault: true, defaults: { codepage: 'CP858', cut: 'partial' } },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.alias, 'bar');
      assert.equal(res.body.isDefault, true);
      assert.deepEqual(res.body.defaults, {
        paper: null,
        dpi: null,
        codepage: 'CP858',
        cut: 'partial',
      });
      assert.ok(
        events
          .slice(seen)
          .some((e) => e.type === 'agents.config_changed' && e.organizationId === orgId),
      );
      // The agent reconnects and reports its own alias and default: the dashboard's stay.
      await h.store.devices.upsertPrinters(
        orgId,
        deviceId,
        [reported('a', { isDefault: true }), reported('b', { alias: 'kitchen', kind: 'label' })],
        h.clock.now(),
      );
      const after = await list();
      const a2 = after.find((p) => p.agentPrinterId === 'a')!;
      const b2 = after.find((p) => p.agentPrinterId === 'b')!;
      assert.equal(b2.alias, 'bar');
      assert.equal(b2.isDefault, true);
      assert.equal(a2.isDefault, false, 'one default printer in the organization');
      const config = printersConfig(await h.store.devices.listPrinters(orgId, deviceId));
      assert.deepEqual(config.find((p) => p.agentPrinterId === 'b')!.defaults, {
        paper: '80mm',
        codepage: 'CP858',
        cut: 'partial',
      });
      // A default removed (null): the agent's own value again.
      const cleared = await h.call('PATCH', `/orgs/${orgId}/printers/${b.id}`, {
        token: owner.access,
        body: { defaults: { cut: null } },
      });
      assert.deepEqual(cleared.body.defaults, {
        paper: null,
        dpi: null,
        codepage: 'CP858',
        cut: null,
      });
    });

    test('a label printer takes its label size and dpi, pushed to its agent in fields of their own', async () => {
      const b = (await list()).find((p) => p.agentPrinterId === 'b')!;
      const res = await h.call('PATCH', `/orgs/${orgId}/printers/${b.id}`, {
        token: owner.access,
        body: { defaults: { paper: '4X6in', dpi: 300 } },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.defaults.paper, '4x6in');
      assert.equal(res.body.defaults.dpi, 300);
      const config = printersConfig(await h.store.devices.listPrinters(orgId, deviceId));
      const defaults = config.find((p) => p.agentPrinterId === 'b')!.defaults;
      assert.equal(defaults.labelSize, '4x6in');
      assert.equal(defaults.dpi, 300);
      // `paper` carries no label: an older agent, which knows only 58mm and 80mm, sees none.
      assert.equal(defaults.paper, undefined);
      const receipt = (await list()).find((p) => p.agentPrinterId === 'a')!;
      const wrong = [
        [b.id, { paper: '80mm' }, 'defaults.paper', /label size/],
        [receipt.id, { paper: '100x150mm' }, 'defaults.paper', /58mm or 80mm/],
        [receipt.id, { dpi: 203 }, 'defaults.dpi', /label printers only/],
        [b.id, { dpi: 200 }, 'defaults.dpi', /./],
      ] as const;
      for (const [id, defaults, path, message] of wrong) {
        const bad = await h.call('PATCH', `/orgs/${orgId}/printers/${id}`, {
          token: owner.access,
          body: { defaults },
        });
        assert.equal(bad.status, 400, JSON.stringify(defaults));
        const detail = bad.body.error.details.find((d: { path: string }) => d.path === path);
        assert.match(detail?.message ?? '', message, JSON.stringify(bad.body));
      }
      await h.call('PATCH', `/orgs/${orgId}/printers/${b.id}`, {
        token: owner.access,
        body: { defaults: { paper: null, dpi: null } },
      });
    });

    test('bad values are 400 naming each field; sandbox printers are 409', async () => {
      const a = (await list()).find((p) => p.agentPrinterId === 'a')!;
      const bad = await h.call('PATCH', `/orgs/${orgId}/printers/${a.id}`, {
        token: owner.access,
        body: { alias: '', defaults: { codepage: 'CP999', paper: '4in' }, colour: 'red' },
      });
      assert.equal(bad.status, 400);
      const paths = bad.body.error.details.map((d: { path: string }) => d.path).sort();
      for (const field of ['alias', 'defaults.codepage', 'defaults.paper']) {
        assert.ok(paths.includes(field), `${field} is named in ${paths.join(', ')}`);
      }
      const sandbox = (await list('?mode=test')).find((p) => p.sandbox)!;
      const res = await h.call('PATCH', `/orgs/${orgId}/printers/${sandbox.id}`, {
        token: owner.access,
        body: { alias: 'mine' },
      });
      assert.equal(res.status, 409);
    });

    test('a test page on a sandbox printer prints a receipt, on a label printer a ZPL label', async () => {
      const sandbox = (await list('?mode=test')).find(
        (p) => p.sandbox && p.kind === 'receipt' && p.status === 'online',
      )!;
      const res = await h.call('POST', `/orgs/${orgId}/printers/${sandbox.id}/test-page`, {
        token: owner.access,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.type, 'receipt');
      assert.equal(res.body.state, 'printed');
      const label = (await list()).find((p) => p.kind === 'label')!;
      const queued = await h.call('POST', `/orgs/${orgId}/printers/${label.id}/test-page`, {
        token: owner.access,
      });
      assert.equal(queued.status, 201);
      assert.equal(queued.body.type, 'zpl');
      assert.equal(queued.body.state, 'queued');
    });

    test('the overview counts printers by status and jobs by state, with the last failures', async () => {
      const res = await h.call('GET', `/orgs/${orgId}/overview`, { token: owner.access });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.printers, { total: 2, online: 2, offline: 0, attention: 0 });
      assert.equal(res.body.jobs.byState.queued, 1);
      assert.deepEqual(res.body.lastFailures, []);
    });

    test('viewers read printers, developers and above change them', async () => {
      const a = (await list()).find((p) => p.agentPrinterId === 'a')!;
      const people: Record<string, Person> = { owner };
      for (const r of ROLES.filter((x) => x !== 'owner')) {
        people[r] = await h.person(`p${r}`);
        await h.store.organizations.addMember(orgId, people[r]!.userId, r, h.clock.now());
      }
      for (const r of ROLES) {
        const read = await h.call('GET', `/orgs/${orgId}/printers/${a.id}`, {
          token: people[r]!.access,
        });
        assert.equal(read.status, 200, r);
        const change = await h.call('PATCH', `/orgs/${orgId}/printers/${a.id}`, {
          token: people[r]!.access,
          body: { alias: `by-${r}` },
        });
        assert.equal(change.status, r === 'viewer' ? 403 : 200, r);
      }
    });
  });
}
