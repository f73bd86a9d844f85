/**
 * The offline grace (`offlineGraceMs`): a device whose socket closes and that connects again
 * within it is never shown offline (no offline write, no device.offline event); one that does not
 * come back is marked offline when the grace ends; a gateway that stops marks them at once.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BusEvent } from '../bus/events.js';
import { MemoryBus } from '../bus/memory.js';
import type { Store } from '../storage/store.js';
import { openTestStore } from '../testing/stores.js';
import { startGatewayHarness, TestAgent, type GatewayHarness } from '../testing/gateway.js';

const GRACE = 400;
let h: GatewayHarness;
let store: Store;
let cleanup: () => Promise<void>;
const events: BusEvent[] = [];

before(async () => {
  ({ store, cleanup } = await openTestStore('sqlite'));
  const bus = new MemoryBus();
  await bus.subscribe((e) => events.push(e));
  h = await startGatewayHarness({ store, bus, gateway: { offlineGraceMs: GRACE } });
});

after(async () => {
  await h.close();
  await cleanup();
});

const status = async (orgId: string, deviceId: string) =>
  (await store.devices.get(orgId, deviceId))?.status;
const offlineEvents = (deviceId: string) =>
  events.filter((e) => e.type === 'device.offline' && e.deviceId === deviceId).length;

test('a device that reconnects within the grace stays online; one that does not is offline once it ends', async () => {
  const org = await h.org();
  const { deviceId, deviceToken } = await h.activate(org);
  const first = await TestAgent.online(h.wsUrl, deviceToken);
  first.agent.socket.terminate();
  await first.agent.closed;
  const second = await TestAgent.online(h.wsUrl, deviceToken);
  assert.equal(await status(org.orgId, deviceId), 'online');

  const closedAt = Date.now();
  second.agent.socket.terminate();
  await second.agent.closed;
  assert.equal(await status(org.orgId, deviceId), 'online', 'still within the grace');
  // Offline in storage, then announced: the event follows the write.
  for (;;) {
    if ((await status(org.orgId, deviceId)) === 'offline' && offlineEvents(deviceId) > 0) break;
    assert.ok(Date.now() - closedAt < 5000, 'offline within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.ok(Date.now() - closedAt >= GRACE, 'not before the grace ended');
  assert.equal(offlineEvents(deviceId), 1, 'one device.offline: the reconnect made none');
});
