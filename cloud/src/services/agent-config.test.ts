import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { MemoryBus } from '../bus/memory.js';
import { ManualClock } from '../lib/clock.js';
import { openTestStore } from '../testing/stores.js';
import { bootstrap } from './bootstrap.js';
import type { Store } from '../storage/store.js';
import type { Printer, PrinterGroup } from '../storage/types.js';
import {
  AgentConfigService,
  compareVersions,
  ORGANIZATION_CONFIG_CACHE_MS,
  printerGroupsConfig,
  receivesHtmlTemplates,
  type OrganizationConfig,
} from './agent-config.js';

test('versions compare by major, minor and patch, a pre-release before its release', () => {
  assert.equal(compareVersions('1.0.1', '1.0.1'), 0);
  assert.equal(compareVersions('1.0.10', '1.0.9'), 1);
  assert.equal(compareVersions('1.0.0', '1.0.1'), -1);
  assert.equal(compareVersions('1.0.1-rc.1', '1.0.1'), -1);
  assert.equal(compareVersions('v1.2.3', '1.2.3'), 0);
  assert.equal(compareVersions('1.0.1+build.5', '1.0.1'), 0);
  assert.equal(compareVersions('garbage', '0.0.1'), -1);
});

test('HTML templates go to agents from 1.0.1 on, not before and not to an unknown version', () => {
  for (const v of ['1.0.1', '1.0.2', '1.1.0', '2.0.0', '10.0.0']) {
    assert.equal(receivesHtmlTemplates(v), true, v);
  }
  for (const v of ['1.0.0', '0.9.99', '1.0.1-beta', '', 'sandbox', '1.0']) {
    assert.equal(receivesHtmlTemplates(v), false, v);
  }
});

test('templates beyond the size budget are left out, the first ones kept, and the rest still sent', () => {
  const template = (id: string, chars: number) => ({
    id,
    name: id,
    type: 'zpl' as const,
    content: 'x'.repeat(chars),
    paper: null,
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
  const size = Buffer.byteLength(JSON.stringify(template('t1', 1000)));
  const service = new AgentConfigService({
    store: {} as Store,
    bus: new MemoryBus(),
    logger: pino({ level: 'silent' }),
    maxTemplateBytes: 2 * size,
  });
  const organization: OrganizationConfig = {
    templates: [template('t1', 1000), template('t2', 1000), template('t3', 1000)],
    local: {
      requireSignature: false,
      unsignedModeEnabled: false,
      devModeEnabled: true,
      allowedOrigins: [],
      signingKeys: [],
      localDownloadsToPrivateNetwork: false,
    },
    printerGroups: [],
  };
  const config = service.configFor(organization, [], '1.1.0', 'dev_1');
  assert.deepEqual(
    config.templates!.map((t) => t.id),
    ['t1', 't2'],
  );
  assert.equal(config.local!.devModeEnabled, true);
  const roomy = new AgentConfigService({
    store: {} as Store,
    bus: new MemoryBus(),
    logger: pino({ level: 'silent' }),
    maxTemplateBytes: 3 * size,
  });
  assert.equal(roomy.configFor(organization, [], '1.1.0', 'dev_1').templates!.length, 3);
});

test('the default budget carries the spec’s 200 templates of 2 MB in one message', () => {
  const service = new AgentConfigService({
    store: {} as Store,
    bus: new MemoryBus(),
    logger: pino({ level: 'silent' }),
  });
  const each = Math.floor((2 * 1024 * 1024) / 200);
  const templates = Array.from({ length: 200 }, (_, i) => ({
    id: `tpl_${i}`,
    name: `Template ${i}`,
    type: 'receipt' as const,
    content: '"'.repeat(each),
    paper: '80mm',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }));
  const config = service.configFor(
    {
      templates,
      local: {
        requireSignature: false,
        unsignedModeEnabled: false,
        devModeEnabled: false,
        allowedOrigins: [],
        signingKeys: [],
        localDownloadsToPrivateNetwork: false,
      },
      printerGroups: [],
    },
    [],
    '1.1.0',
    'dev_1',
  );
  assert.equal(config.templates!.length, 200);
});

test('an agent gets each group with a member on its computer, only those members, in group order', () => {
  const printer = (id: string, deviceId: string) =>
    ({ id, deviceId, agentPrinterId: `agent-${id}` }) as Printer;
  const group = (id: string, printerIds: string[], strategy: PrinterGroup['strategy']) =>
    ({ id, name: `Group ${id}`, strategy, printerIds }) as PrinterGroup;
  const mine = [printer('p3', 'dev_1'), printer('p1', 'dev_1')];
  const groups = [
    group('grp_a', ['p1', 'p2', 'p3'], 'failover'),
    group('grp_b', ['p2'], 'round-robin'),
    group('grp_c', ['p3', 'p1'], 'round-robin'),
  ];
  assert.deepEqual(printerGroupsConfig(groups, mine), [
    {
      id: 'grp_a',
      name: 'Group grp_a',
      strategy: 'failover',
      agentPrinterIds: ['agent-p1', 'agent-p3'],
    },
    {
      id: 'grp_c',
      name: 'Group grp_c',
      strategy: 'round-robin',
      agentPrinterIds: ['agent-p3', 'agent-p1'],
    },
  ]);
  const many = Array.from({ length: 101 }, (_, i) => group(`grp_${i}`, ['p1'], 'failover'));
  assert.equal(printerGroupsConfig(many, mine).length, 100);
});

test('welcomes of one organization share one read of its part until a change is announced, or for 30 s', async () => {
  const { store, cleanup } = await openTestStore('sqlite');
  try {
    const clock = new ManualClock(Date.parse('2026-03-10T10:00:00.000Z'));
    const org = await bootstrap(
      store,
      { email: 'cache@example.com', password: 'correct horse battery', org: 'Cache shop' },
      clock.now(),
    );
    let reads = 0;
    const read = store.organizations.get.bind(store.organizations);
    store.organizations.get = (id) => {
      reads++;
      return read(id);
    };
    const bus = new MemoryBus();
    const announced: string[] = [];
    await bus.subscribe((e) => {
      if (e.type === 'agents.config_changed') announced.push(e.organizationId);
    });
    const service = new AgentConfigService({
      store,
      bus,
      logger: pino({ level: 'silent' }),
      clock,
    });
    // A storm: twenty welcomes at once, then more, read the organization once.
    const first = await Promise.all(
      Array.from({ length: 20 }, () => service.organizationConfig(org.orgId)),
    );
    await service.organizationConfig(org.orgId);
    assert.equal(reads, 1);
    assert.equal(first[19]!.local.devModeEnabled, first[0]!.local.devModeEnabled);
    // A change announced through the service is read by the next welcome.
    const dev = !first[0]!.local.devModeEnabled;
    await store.organizations.update(org.orgId, { devModeEnabled: dev }, clock.now());
    await service.changed(org.orgId);
    assert.deepEqual(announced, [org.orgId]);
    assert.equal((await service.organizationConfig(org.orgId))!.local.devModeEnabled, dev);
    assert.equal(reads, 2);
    // Heard from another instance (the gateway calls forget): read again.
    await store.organizations.update(org.orgId, { devModeEnabled: !dev }, clock.now());
    service.forget(org.orgId);
    assert.equal((await service.organizationConfig(org.orgId))!.local.devModeEnabled, !dev);
    // An announcement lost on the way keeps it out of date for 30 s at most.
    await store.organizations.update(org.orgId, { devModeEnabled: dev }, clock.now());
    clock.advance(ORGANIZATION_CONFIG_CACHE_MS - 1);
    assert.equal((await service.organizationConfig(org.orgId))!.local.devModeEnabled, !dev);
    clock.advance(1);
    assert.equal((await service.organizationConfig(org.orgId))!.local.devModeEnabled, dev);
    assert.equal(reads, 4);
    // A gone organization is not kept: it is asked again each time.
    assert.equal(await service.organizationConfig('org_gone'), undefined);
    assert.equal(await service.organizationConfig('org_gone'), undefined);
    assert.equal(reads, 6);
  } finally {
    await cleanup();
  }
});
