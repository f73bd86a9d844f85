/**
 * Printers without a computer behind two cloud instances sharing PostgreSQL and Redis (a load
 * balancer sends each poll to either): a printer's polls answered by both never get one job
 * twice nor two jobs at once, a fetch and a confirmation may reach the other instance, and the
 * silence sweep and UNCONFIRMED run on either.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../lib/clock.js';
import {
  startTwoCloudInstances,
  twoCloudInstancesSkip,
  type GatewayHarness,
} from '../../testing/gateway.js';
import { SimulatedCloudPrnt } from '../../testing/simulated-cloudprnt.js';
import { EPSON_STATUS, parsePrintRequest, SimulatedSdp } from '../../testing/simulated-sdp.js';

const skip = await twoCloudInstancesSkip();

describe('printers that connect by themselves, polling two cloud instances', { skip }, () => {
  let one: GatewayHarness;
  let two: GatewayHarness;
  let close: (() => Promise<void>) | undefined;
  const clock = new ManualClock(Date.parse('2026-03-10T10:00:00.000Z'));

  before(async () => {
    ({ one, two, close } = await startTwoCloudInstances({ poolSize: 4, clock }));
  });
  after(() => close?.());

  /** The path of a printer's address on an instance (as a load balancer would send it). */
  const on = (h: GatewayHarness, url: string) => h.url + new URL(url).pathname;

  test('CloudPRNT polls spread over both: every job handed over once, printed once', async () => {
    const org = await one.org();
    const created = await one.cloud.cloudPrinters.create(org.orgId, {
      name: 'Star behind a balancer',
      protocol: 'cloudprnt',
    });
    const printerId = created.printer.id;
    const stars = [one, two].map((h) => new SimulatedCloudPrnt({ url: on(h, created.url) }));
    await stars[0]!.poll();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await one.post(
        '/v1/jobs',
        { printerId, type: 'text', data: `order ${i}` },
        org.liveKey,
      );
      assert.equal(res.status, 201);
      ids.push((res.body as { id: string }).id);
    }
    // Ten polls at once, half on each instance: one job handed over, offered to all of them.
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => stars[i % 2]!.poll()));
    const tokens = new Set(answers.filter((a) => a.body?.jobReady).map((a) => a.body!.jobToken));
    assert.equal(tokens.size, 1);
    const [token] = [...tokens];
    // Fetched from one instance, the same bytes from the other; confirmed on the other.
    const a = await stars[0]!.fetchJob('text/plain', token);
    const b = await stars[1]!.fetchJob('text/plain', token);
    assert.equal(a.status, 200);
    assert.ok(a.bytes.equals(b.bytes));
    await stars[1]!.confirm('200 OK', token);
    // The rest: one printer's polls go one after another, each to either instance.
    for (let round = 0; round < 6; round++) await stars[round % 2]!.cycle();
    const paper = [...stars[0]!.paper, ...stars[1]!.paper].map((p) => p.bytes.toString('utf8'));
    assert.equal(paper.length + 1, 4, 'three more jobs printed, none twice');
    assert.equal(new Set(paper).size, paper.length);
    for (const id of ids) {
      assert.equal((await two.store.jobs.get(org.orgId, 'live', id))?.state, 'printed');
    }
  });

  test('SDP polls on both at once: one carries the job; its result on the other prints it', async () => {
    const org = await two.org();
    const created = await two.cloud.cloudPrinters.create(org.orgId, {
      name: 'Epson behind a balancer',
      protocol: 'sdp',
    });
    const epsons = [one, two].map((h) => new SimulatedSdp(on(h, created.url)));
    const res = await two.post(
      '/v1/jobs',
      { printerId: created.printer.id, type: 'text', data: 'once' },
      org.liveKey,
    );
    const id = (res.body as { id: string }).id;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => epsons[i % 2]!.getRequest()),
    );
    const carried = answers.filter((a) => a.body !== '');
    assert.equal(carried.length, 1);
    const request = parsePrintRequest(carried[0]!.body);
    await epsons[0]!.setResponse(
      epsons[0]!.responseFile([
        { printjobid: request.jobs[0]!.printjobid, success: true, status: EPSON_STATUS.printed },
      ]),
    );
    assert.equal((await two.store.jobs.get(org.orgId, 'live', id))?.state, 'printed');
  });

  test('silence and unconfirmed hand-overs are swept by either instance, once', async () => {
    const org = await one.org();
    const created = await one.cloud.cloudPrinters.create(org.orgId, {
      name: 'Quiet',
      protocol: 'cloudprnt',
    });
    const star = new SimulatedCloudPrnt({ url: on(two, created.url) });
    await star.poll();
    const res = await one.post(
      '/v1/jobs',
      { printerId: created.printer.id, type: 'text', data: 'lost' },
      org.liveKey,
    );
    const id = (res.body as { id: string }).id;
    assert.equal((await star.poll()).body?.jobReady, true);
    clock.advance(121_000);
    const [a, b] = await Promise.all([
      one.cloud.cloudPrinters.sweep(),
      two.cloud.cloudPrinters.sweep(),
    ]);
    assert.equal(a.unconfirmed + b.unconfirmed, 1);
    const job = await one.store.jobs.get(org.orgId, 'live', id);
    assert.equal(job?.errorCode, 'UNCONFIRMED');
    const device = await one.store.devices.get(org.orgId, created.device.id);
    assert.equal(device?.status, 'offline');
  });
});
