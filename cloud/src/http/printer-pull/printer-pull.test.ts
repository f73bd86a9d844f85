/**
 * Printers without a computer, end to end over real HTTP: simulated Star CloudPRNT and Epson SDP
 * printers (written from the vendors' documents, cloud/src/testing/simulated-*.ts) poll the
 * cloud; jobs are created through /v1/jobs and read back as a user sees them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startHarness, type Harness } from '../../testing/harness.js';
import { ASB, SimulatedCloudPrnt } from '../../testing/simulated-cloudprnt.js';
import {
  checkEposPrint,
  EPSON_STATUS,
  parsePrintRequest,
  SimulatedSdp,
} from '../../testing/simulated-sdp.js';
import type { BootstrapResult } from '../../services/bootstrap.js';

const receipt = {
  blocks: [
    { type: 'text', value: 'Table 4', bold: true, align: 'center' },
    { type: 'text', value: 'Espresso 2.50' },
    { type: 'cut' },
  ],
};

/** An 8×8 black square, PNG. */
const PNG_8X8 =
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAYAAADED76LAAAAIElEQVR4AYXBAQEAAAiAIPP/53qQMMDykCBBggQJEiQcDFMBD2KE+E8AAAAASUVORK5CYII=';

/** The width and height of a PNG, from its IHDR. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('printers that connect by themselves', () => {
  let h: Harness;
  let org: BootstrapResult;
  before(async () => {
    h = await startHarness();
    org = await h.org('business');
  });
  after(() => h.close());

  /** Adds one as the dashboard does; its address is reached through this test's server. */
  async function add(protocol: 'cloudprnt' | 'sdp', paper: '58mm' | '80mm' = '80mm') {
    const created = await h.cloud.cloudPrinters.create(org.orgId, {
      name: `${protocol} ${Math.random()}`,
      protocol,
      paper,
    });
    const url = h.url + new URL(created.url).pathname;
    return { printerId: created.printer.id, deviceId: created.device.id, url };
  }

  async function print(printerId: string, body: Record<string, unknown> = {}): Promise<string> {
    const res = await h.call('POST', '/v1/jobs', {
      key: org.liveKey,
      body: { printerId, type: 'receipt', data: receipt, ...body },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as string;
  }

  const job = async (id: string) =>
    (await h.call('GET', `/v1/jobs/${id}`, { key: org.liveKey })).body;
  const printer = async (id: string) =>
    (await h.call('GET', `/v1/printers/${id}`, { key: org.liveKey })).body;
  const device = async (id: string) =>
    (await h.call('GET', `/v1/devices/${id}`, { key: org.liveKey })).body;

  test('CloudPRNT: online at the first poll, a job offered, fetched twice alike, confirmed printed', async () => {
    const { printerId, deviceId, url } = await add('cloudprnt');
    assert.equal((await device(deviceId)).status, 'offline');
    const star = new SimulatedCloudPrnt({ url });

    const first = await star.poll();
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.equal(first.body?.jobReady, false);
    // ClientType and Encodings were asked once and answered at once; not asked again.
    assert.equal(star.log.length, 2);
    assert.equal((await star.poll()).body?.clientAction, undefined);
    assert.equal((await device(deviceId)).status, 'online');
    assert.equal((await printer(printerId)).status, 'online');
    assert.equal((await printer(printerId)).connection, 'cloudprnt');
    assert.ok(h.events.some((e) => e.type === 'device.online' && e.deviceId === deviceId));

    const id = await print(printerId);
    const offer = await star.poll();
    assert.equal(offer.body?.jobReady, true);
    assert.ok(offer.body?.mediaTypes?.includes('image/png'));
    assert.ok(offer.body?.mediaTypes?.includes('text/plain'));
    assert.match(offer.body?.jobToken ?? '', /^[A-Za-z0-9_-]{1,30}$/);
    assert.equal((await job(id)).state, 'sending');

    assert.equal(offer.body?.mediaTypes?.[0], 'application/vnd.star.starprnt');
    const starprnt = await star.fetchJob('application/vnd.star.starprnt', offer.body!.jobToken);
    assert.equal(starprnt.status, 200);
    assert.equal(starprnt.headers.get('content-type'), 'application/vnd.star.starprnt');
    assert.equal(starprnt.bytes[0], 0x1b, 'StarPRNT commands start with ESC');
    const png = await star.fetchJob('image/png', offer.body!.jobToken);
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    assert.equal(png.headers.get('cache-control'), 'no-store');
    assert.equal(pngSize(png.bytes).width, 576);
    const again = await star.fetchJob('image/png', offer.body!.jobToken);
    assert.ok(again.bytes.equals(png.bytes), 'a repeated GET gives the same bytes');
    const text = await star.fetchJob('text/plain', offer.body!.jobToken);
    assert.match(text.bytes.toString('utf8'), /Espresso 2\.50/);
    assert.equal((await star.fetchJob('application/pdf', offer.body!.jobToken)).status, 415);
    assert.equal((await star.fetchJob('image/png', 'not-the-token')).status, 404);
    // The same job is offered again until it is confirmed (the printer may ask again).
    assert.equal((await star.poll()).body?.jobToken, offer.body!.jobToken);

    assert.equal((await star.confirm('200 OK', offer.body!.jobToken)).status, 200);
    const done = await job(id);
    assert.equal(done.state, 'printed');
    assert.equal((await star.poll()).body?.jobReady, false);
    // A repeated confirmation changes nothing.
    assert.equal((await star.confirm('200 OK', offer.body!.jobToken)).status, 200);
    assert.equal((await job(id)).updatedAt, done.updatedAt);
    assert.equal((await star.fetchJob('image/png', offer.body!.jobToken)).status, 404);
  });

  test('CloudPRNT: the whole cycle as the printer runs it, a 58 mm picture 384 dots wide', async () => {
    const { printerId, url } = await add('cloudprnt', '58mm');
    const star = new SimulatedCloudPrnt({ url, encodings: ['image/png', 'image/jpeg'] });
    await star.poll();
    const id = await print(printerId);
    const { answer, printed } = await star.cycle();
    assert.deepEqual(answer.body?.mediaTypes, ['image/png'], 'only what the printer takes');
    assert.equal(printed?.type, 'image/png');
    assert.equal(pngSize(printed!.bytes).width, 384);
    assert.equal((await job(id)).state, 'printed');
    assert.equal(star.paper.length, 1);
  });

  test('CloudPRNT: an error code fails the job PRINTER_ERROR with the code in words; GET-delete works', async () => {
    const { printerId, url } = await add('cloudprnt');
    const star = new SimulatedCloudPrnt({ url });
    await star.poll();
    const id = await print(printerId);
    const offer = await star.poll();
    await star.fetchJob('image/png', offer.body!.jobToken);
    await star.confirm('510 Incompatible Media Type', offer.body!.jobToken, 'GET');
    const failed = await job(id);
    assert.equal(failed.state, 'failed');
    assert.equal(failed.errorCode, 'PRINTER_ERROR');
    assert.match(failed.errorMessage, /510.*cannot print this media type/);
    assert.equal((await star.poll()).body?.jobReady, false, 'a failed job is not offered again');
  });

  test('CloudPRNT: no offer while printing; legacy firmware without tokens prints its current job', async () => {
    const { printerId, url } = await add('cloudprnt');
    const star = new SimulatedCloudPrnt({ url, modern: false });
    await star.poll();
    const id = await print(printerId);
    const { printed } = await star.cycle();
    assert.ok(printed);
    assert.equal((await job(id)).state, 'printed');

    const modern = new SimulatedCloudPrnt({ url: (await add('cloudprnt')).url });
    await modern.poll();
    modern.printingInProgress = true;
    assert.equal((await modern.poll()).body?.jobReady, false);
  });

  test('CloudPRNT status: ASB paper end and cover open win over the offline bit; statusCode alone', async () => {
    const { printerId, url } = await add('cloudprnt');
    const star = new SimulatedCloudPrnt({ url });
    const cases: Array<[string, string | null, string]> = [
      ['410 Out of paper', ASB.paperOut, 'paper_out'],
      ['420 Cover open', ASB.coverOpen, 'cover_open'],
      ['200 OK', ASB.online, 'online'],
      ['410 Out of paper', null, 'paper_out'],
      ['420 Cover open', null, 'cover_open'],
      ['400 Offline', ASB.offline, 'offline'],
      ['200%20OK', null, 'online'],
    ];
    for (const [code, asb, expected] of cases) {
      star.statusCode = code;
      await star.post(asb === null ? { status: null } : { status: asb });
      assert.equal((await printer(printerId)).status, expected, `${code} ${asb}`);
    }
    assert.ok(h.events.some((e) => e.type === 'printer.paper_out' && e.printerId === printerId));

    // While it reports no paper, no job is handed over (it could not print it).
    star.statusCode = '410 Out of paper';
    star.asb = ASB.paperOut;
    const id = await print(printerId);
    assert.equal((await star.poll()).body?.jobReady, false);
    assert.equal((await job(id)).state, 'queued');
    star.statusCode = '200 OK';
    star.asb = ASB.online;
    assert.equal((await star.poll()).body?.jobReady, true);
  });

  test('SDP: the print request holds ePOS-Print XML and a printjobid; SetResponse prints it once', async () => {
    const { printerId, deviceId, url } = await add('sdp');
    const epson = new SimulatedSdp(url);
    const idle = await epson.getRequest();
    assert.equal(idle.status, 200);
    assert.equal(idle.body, '');
    assert.equal(idle.headers.get('content-type'), 'text/xml; charset=utf-8');
    assert.equal(idle.headers.get('cache-control'), 'no-store');
    assert.equal((await device(deviceId)).status, 'online');
    assert.equal((await printer(printerId)).connection, 'sdp');

    const id = await print(printerId);
    const answer = await epson.getRequest();
    const request = parsePrintRequest(answer.body);
    assert.equal(request.version, '2.00');
    assert.equal(request.jobs.length, 1);
    const [one] = request.jobs;
    assert.equal(one!.devid, 'local_printer');
    assert.ok(one!.timeout >= 1000 && one!.timeout <= 60000);
    assert.match(one!.printjobid ?? '', /^[A-Za-z0-9_.-]{1,30}$/);
    checkEposPrint(one!.eposPrint);
    assert.match(one!.eposPrint, /<text[^>]*>Espresso 2\.50/);
    assert.match(one!.eposPrint, /<cut\b[^>]*\/>/);
    assert.equal((await job(id)).state, 'sending');
    // Asked again before the result: the job is not handed over twice.
    assert.equal((await epson.getRequest()).body, '');

    // An idle SetResponse (after every poll on a TM-m30III) changes nothing.
    await epson.setResponse(
      '<?xml version="1.0" encoding="utf-8"?><PrintResponseInfo Version="1.00"/>',
    );
    assert.equal((await job(id)).state, 'sending');
    const result = epson.responseFile([
      { printjobid: one!.printjobid, success: true, status: EPSON_STATUS.printed },
    ]);
    const set = await epson.setResponse(result);
    assert.equal(set.status, 200);
    assert.equal(set.body, '');
    const done = await job(id);
    assert.equal(done.state, 'printed');
    // The same result again, and a result for a job id that is not this printer's: nothing.
    await epson.setResponse(result);
    await epson.setResponse(
      epson.responseFile([
        { printjobid: 'someone-else', success: false, code: 'EX_TIMEOUT', status: 1 },
      ]),
    );
    assert.equal((await job(id)).updatedAt, done.updatedAt);
    assert.equal((await epson.getRequest()).body, '');
  });

  test('SDP: the cycle as the printer runs it; a failure code in words; old firmware (Version 1.00)', async () => {
    const { printerId, url } = await add('sdp', '58mm');
    const epson = new SimulatedSdp(url);
    // A picture goes as an <image> the paper's width at most, 1 bit a dot.
    const id = await print(printerId, { type: 'image', encoding: 'base64', data: PNG_8X8 });
    const { request } = await epson.cycle();
    const [image] = checkEposPrint(request!.jobs[0]!.eposPrint);
    assert.ok(image && image.width > 0 && image.width <= 384, JSON.stringify(image));
    assert.equal((await job(id)).state, 'printed');
    assert.equal(epson.paper.length, 1);

    const failing = await print(printerId);
    await epson.cycle({ success: false, code: 'EPTR_REC_EMPTY', status: EPSON_STATUS.paperEnd });
    const failed = await job(failing);
    assert.equal(failed.state, 'failed');
    assert.equal(failed.errorCode, 'PRINTER_ERROR');
    assert.match(failed.errorMessage, /EPTR_REC_EMPTY.*out of paper/);
    assert.equal((await printer(printerId)).status, 'paper_out');

    const older = await add('sdp');
    const old = new SimulatedSdp(older.url, { responseVersion: '1.00' });
    const oldJob = await print(older.printerId);
    await old.cycle();
    assert.equal((await job(oldJob)).state, 'printed');
  });

  test('SDP status notifications: cover open and paper end win over the offline bit', async () => {
    const { printerId, url } = await add('sdp');
    const epson = new SimulatedSdp(url);
    const set = await epson.setStatus(EPSON_STATUS.coverOpen);
    assert.equal(set.status, 200);
    assert.equal(set.body, '');
    assert.equal((await printer(printerId)).status, 'cover_open');
    await epson.setStatus(EPSON_STATUS.paperEnd);
    assert.equal((await printer(printerId)).status, 'paper_out');
    await epson.setStatus(0x0f000000 | 0x8);
    assert.equal((await printer(printerId)).status, 'offline');
    await epson.setStatus(0x0f000016);
    assert.equal((await printer(printerId)).status, 'online');
    assert.ok(h.events.some((e) => e.type === 'printer.paper_out' && e.printerId === printerId));
  });

  test('two printers polling at once, each many times, never get the same job nor one twice', async () => {
    const a = await add('cloudprnt');
    const b = await add('sdp');
    const star = new SimulatedCloudPrnt({ url: a.url });
    const epson = new SimulatedSdp(b.url);
    await star.poll();
    const jobsA = [await print(a.printerId), await print(a.printerId), await print(a.printerId)];
    const jobsB = [await print(b.printerId), await print(b.printerId), await print(b.printerId)];
    // Eight polls of each at once: one open hand-over per printer.
    const [starAnswers, epsonAnswers] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, () => star.poll())),
      Promise.all(Array.from({ length: 8 }, () => epson.getRequest())),
    ]);
    const tokens = new Set(
      starAnswers.filter((x) => x.body?.jobReady).map((x) => x.body!.jobToken),
    );
    assert.equal(tokens.size, 1, 'every CloudPRNT poll was offered the one job it holds');
    const delivered = epsonAnswers.filter((x) => x.body !== '');
    assert.equal(delivered.length, 1, 'one SDP poll carried a job, the others nothing');
    const sending = await Promise.all([...jobsA, ...jobsB].map(job));
    assert.equal(sending.filter((j) => j.state === 'sending').length, 2);

    // Run both printers to the end: each job printed once, on its own printer.
    const request = parsePrintRequest(delivered[0]!.body);
    epson.paper.push(request.jobs[0]!.eposPrint);
    await epson.setResponse(
      epson.responseFile([
        { printjobid: request.jobs[0]!.printjobid, success: true, status: EPSON_STATUS.printed },
      ]),
    );
    for (let i = 0; i < 4; i++) {
      await Promise.all([star.cycle(), epson.cycle()]);
    }
    assert.equal(star.paper.length, 3);
    assert.equal(epson.paper.length, 3);
    for (const id of [...jobsA, ...jobsB]) assert.equal((await job(id)).state, 'printed');
  });

  test('handed over and never confirmed: UNCONFIRMED after 120 s, never again; late word changes nothing', async () => {
    const { printerId, url } = await add('cloudprnt');
    const star = new SimulatedCloudPrnt({ url });
    await star.poll();
    const id = await print(printerId);
    const next = await print(printerId);
    const offer = await star.poll();
    await star.fetchJob('image/png', offer.body!.jobToken);
    h.clock.advance(119_000);
    await h.cloud.cloudPrinters.sweep();
    assert.equal((await job(id)).state, 'sending');
    h.clock.advance(1_000);
    await star.poll();
    await h.cloud.cloudPrinters.sweep();
    const failed = await job(id);
    assert.equal(failed.state, 'failed');
    assert.equal(failed.errorCode, 'UNCONFIRMED');
    // The late confirmation changes nothing; the next poll gets the next job, not this one.
    await star.confirm('200 OK', offer.body!.jobToken);
    assert.equal((await job(id)).state, 'failed');
    const after = await star.poll();
    assert.notEqual(after.body?.jobToken, offer.body!.jobToken);
    await star.confirm('200 OK', after.body!.jobToken);
    assert.equal((await job(next)).state, 'printed');
    const reprint = await h.call('GET', `/v1/jobs/${id}`, { key: org.liveKey });
    assert.equal(reprint.body.state, 'failed');

    // SDP alike: the job was in the answer; no result within 120 s fails it.
    const sdp = await add('sdp');
    const epson = new SimulatedSdp(sdp.url);
    const sdpJob = await print(sdp.printerId);
    const carried = parsePrintRequest((await epson.getRequest()).body);
    h.clock.advance(121_000);
    await epson.getRequest();
    await h.cloud.cloudPrinters.sweep();
    assert.equal((await job(sdpJob)).errorCode, 'UNCONFIRMED');
    await epson.setResponse(
      epson.responseFile([
        { printjobid: carried.jobs[0]!.printjobid, success: true, status: EPSON_STATUS.printed },
      ]),
    );
    assert.equal((await job(sdpJob)).state, 'failed');
    assert.equal((await epson.getRequest()).body, '');
  });

  test('offline after 60 s of silence (device and printer), online again at the next poll', async () => {
    const { printerId, deviceId, url } = await add('sdp');
    const epson = new SimulatedSdp(url);
    await epson.getRequest();
    h.clock.advance(59_000);
    await h.cloud.cloudPrinters.sweep();
    assert.equal((await device(deviceId)).status, 'online');
    h.clock.advance(2_000);
    await h.cloud.cloudPrinters.sweep();
    assert.equal((await device(deviceId)).status, 'offline');
    assert.equal((await printer(printerId)).status, 'offline');
    assert.ok(h.events.some((e) => e.type === 'device.offline' && e.deviceId === deviceId));
    assert.ok(h.events.some((e) => e.type === 'printer.offline' && e.printerId === printerId));
    await epson.getRequest();
    assert.equal((await device(deviceId)).status, 'online');
    assert.equal((await printer(printerId)).status, 'online');
  });

  test('a wrong or removed secret is refused by both protocols and changes nothing', async () => {
    const star = await add('cloudprnt');
    const epson = await add('sdp');
    const id = await print(star.printerId);
    const wrong = (url: string) => url.replace(/pwp_.{6}/, 'pwp_XXXXXX');
    const badStar = new SimulatedCloudPrnt({ url: wrong(star.url) });
    const poll = await badStar.poll();
    assert.equal(poll.status, 404);
    assert.equal(poll.headers.get('cache-control'), 'no-store');
    assert.equal((await badStar.fetchJob('image/png', undefined)).status, 404);
    assert.equal((await badStar.confirm('200 OK', undefined)).status, 404);
    const badEpson = new SimulatedSdp(wrong(epson.url));
    assert.equal((await badEpson.getRequest()).status, 404);
    assert.equal((await job(id)).state, 'queued');
    assert.equal((await device((await printer(star.printerId)).deviceId)).status, 'offline');
    // Swapped protocols: an SDP secret is not a CloudPRNT address.
    assert.equal(
      (await new SimulatedCloudPrnt({ url: epson.url.replace('/sdp/', '/cloudprnt/') }).poll())
        .status,
      404,
    );

    await h.cloud.cloudPrinters.remove(org.orgId, epson.printerId);
    assert.equal((await new SimulatedSdp(epson.url).getRequest()).status, 404);
    const setting = await h.call(
      'GET',
      '/printer-pull/cloudprnt/cloudprnt-setting.json?mac=00%3A11',
    );
    assert.equal(setting.status, 404);
  });

  test('ZPL and EPL jobs for such a printer are INVALID_JOB naming the type; text and images print', async () => {
    const { printerId, url } = await add('cloudprnt');
    for (const type of ['zpl', 'epl']) {
      const res = await h.call('POST', '/v1/jobs', {
        key: org.liveKey,
        body: { printerId, type, data: '^XA^XZ' },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'INVALID_JOB');
      assert.match(
        res.body.error.details[0].message,
        /^type: a Star CloudPRNT printer prints receipt/,
      );
    }
    const star = new SimulatedCloudPrnt({ url });
    await star.poll();
    const text = await print(printerId, { type: 'text', data: 'Hello kitchen' });
    assert.ok((await star.cycle()).printed);
    assert.equal((await job(text)).state, 'printed');
  });

  test('a test-mode job for such a printer shows the picture that printer would receive', async () => {
    const { printerId } = await add('cloudprnt', '58mm');
    const res = await h.call('POST', '/v1/jobs', {
      key: org.testKey,
      body: { printerId, type: 'receipt', data: receipt },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const preview = await h.call('GET', `/v1/jobs/${res.body.id}/preview`, { key: org.testKey });
    assert.equal(preview.status, 200);
    assert.equal(pngSize(preview.raw).width, 384);
  });
});
