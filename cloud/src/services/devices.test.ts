/**
 * Hellos arriving together are stored in one transaction; one that cannot be stored fails alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import type { PrinterInfo } from '@printwire/shared/protocol/index';
import { MemoryBus } from '../bus/memory.js';
import { ManualClock } from '../lib/clock.js';
import { printerInfo } from '../testing/gateway.js';
import { openTestStore, storeKinds } from '../testing/stores.js';
import { bootstrap } from './bootstrap.js';
import { DeviceService } from './devices.js';

for (const { kind, skip } of await storeKinds()) {
  test(
    `hellos arriving together are stored together, and one that cannot be stored fails alone (${kind})`,
    { skip },
    async () => {
      const { store, cleanup } = await openTestStore(kind);
      try {
        const clock = new ManualClock(Date.parse('2026-03-10T10:00:00.000Z'));
        const org = await bootstrap(
          store,
          { email: `hellos-${kind}@example.com`, password: 'correct horse battery', org: 'Hellos' },
          clock.now(),
        );
        const devices = new DeviceService({
          store,
          bus: new MemoryBus(),
          clock,
          logger: pino({ level: 'silent' }),
        });
        const made = await Promise.all(
          ['one', 'two', 'three'].map((name) =>
            store.inventory.createDevice(
              org.orgId,
              { name, os: 'linux', arch: 'x64', agentVersion: '1.1.0', tokenHash: `hash-${name}` },
              clock.now(),
            ),
          ),
        );
        const hello = (printers: PrinterInfo[]) => ({
          os: 'linux',
          arch: 'x64',
          agentVersion: '1.2.0',
          printers,
        });
        // The second reports one printer twice: the store refuses its second row.
        const [one, two, three] = await Promise.allSettled([
          devices.connected(made[0]!, hello([printerInfo('prn_a'), printerInfo('prn_b')])),
          devices.connected(made[1]!, hello([printerInfo('prn_a'), printerInfo('prn_a')])),
          devices.connected(made[2]!, hello([printerInfo('prn_c')])),
        ]);
        assert.equal(two.status, 'rejected');
        assert.equal(one.status, 'fulfilled');
        assert.equal(three.status, 'fulfilled');
        assert.deepEqual(
          one.value.map((p) => [p.agentPrinterId, p.status]),
          [
            ['prn_a', 'online'],
            ['prn_b', 'online'],
          ],
        );
        for (const [device, status, version] of [
          [made[0]!, 'online', '1.2.0'],
          [made[1]!, 'offline', '1.1.0'],
          [made[2]!, 'online', '1.2.0'],
        ] as const) {
          const row = await store.devices.get(org.orgId, device.id);
          assert.deepEqual([row?.status, row?.agentVersion], [status, version], device.name);
        }
        assert.equal((await store.devices.listPrinters(org.orgId, made[2]!.id)).length, 1);
        // Reported again unchanged, within the offline grace: nothing but presence is written.
        clock.advance(1000);
        const again = await devices.connected(
          made[0]!,
          hello([printerInfo('prn_a'), printerInfo('prn_b')]),
        );
        assert.deepEqual(
          again.map((p) => p.lastStatusAt),
          one.value.map((p) => p.lastStatusAt),
        );
        assert.equal((await store.devices.get(org.orgId, made[0]!.id))?.lastSeenAt, clock.now());
      } finally {
        await cleanup();
      }
    },
  );
}
