/**
 * The protocol details the vendors' documents spell out, on their own: Star status codes in each
 * encoding printers send, ASB bytes padded or not, Epson status in decimal or hex, and the
 * shapes of SDP result files (Versions 1.00, 2.00, 3.00 and the idle one).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseResponseFile, parseStatusNotification, printRequestInfo } from './sdp.js';
import {
  decodeStarCode,
  epsonStatus,
  parseAsb,
  parseEpsonStatus,
  starCodeInWords,
  starStatus,
} from './status.js';

test('Star status codes: URL-encoded, form-encoded and plain alike; 21x paper low is online', () => {
  assert.equal(decodeStarCode('200%20OK'), '200 OK');
  assert.equal(decodeStarCode('200+OK'), '200 OK');
  assert.equal(decodeStarCode('200 OK'), '200 OK');
  assert.equal(decodeStarCode('100%'), '100%');
  assert.equal(decodeStarCode(undefined), '');
  assert.equal(starStatus('211%20Paper%20Low', undefined), 'online');
  assert.equal(starStatus('210 Paper low', undefined), 'online');
  assert.equal(starStatus('411 Paper jam', undefined), 'paper_out');
  assert.match(
    starCodeInWords('521 Job too large'),
    /^CloudPRNT code 521 Job too large: the job is too large/,
  );
});

test('ASB bytes: hex tokens of any width; too few bytes are ignored', () => {
  assert.deepEqual(parseAsb('23 6 0 0 0 0 0 0 0 '), [0x23, 6, 0, 0, 0, 0, 0, 0, 0]);
  assert.equal(parseAsb('23 86 00'), undefined);
  assert.equal(parseAsb('zz 86 00 00 00 00'), undefined);
  // Paper end beside the offline bit: paper out.
  assert.equal(starStatus('200 OK', '23 86 08 00 00 0C 00 00 00'), 'paper_out');
});

test('Epson status: decimal and hex; paper end and cover open win over offline', () => {
  assert.equal(parseEpsonStatus('251658262'), 251658262);
  assert.equal(parseEpsonStatus('0x0F00003C'), 0x0f00003c);
  assert.equal(parseEpsonStatus('abc'), undefined);
  assert.equal(parseEpsonStatus(''), undefined);
  assert.equal(epsonStatus(251658262), 'online');
  assert.equal(epsonStatus(251854870), 'online', 'near end is not out');
  assert.equal(epsonStatus(0x0f00003c), 'cover_open');
  assert.equal(epsonStatus(0x0f080028), 'paper_out');
  assert.equal(epsonStatus(1), 'offline');
});

test('SDP result files: 2.00 by printjobid, 1.00 without, the idle one empty, 3.00 transport errors', () => {
  const ns = 'http://www.epson-pos.com/schemas/2011/03/epos-print';
  const v2 = `<PrintResponseInfo Version="2.00"><ePOSPrint><Parameter><devid>local_printer</devid><printjobid>A1</printjobid></Parameter><PrintResponse><response xmlns="${ns}" success="true" code="" status="251658262" battery="0"/></PrintResponse></ePOSPrint><ePOSPrint><Parameter><devid>local_printer</devid><printjobid>B2</printjobid></Parameter><PrintResponse><response xmlns="${ns}" success="false" code="EPTR_COVER_OPEN" status="1006632988" battery="0"/></PrintResponse></ePOSPrint></PrintResponseInfo>`;
  assert.deepEqual(parseResponseFile(v2).results, [
    { jobId: 'A1', success: true, code: '', status: 251658262 },
    { jobId: 'B2', success: false, code: 'EPTR_COVER_OPEN', status: 1006632988 },
  ]);
  const v1 = `<?xml version="1.0" encoding="utf-8"?><PrintResponseInfo Version="1.00"><response xmlns="${ns}" success="false" code="EX_BADPORT" status="1" battery="0"/></PrintResponseInfo>`;
  assert.deepEqual(parseResponseFile(v1).results, [
    { jobId: null, success: false, code: 'EX_BADPORT', status: 1 },
  ]);
  assert.deepEqual(parseResponseFile('<PrintResponseInfo Version="1.00"/>'), { results: [] });
  const v3 = `<PrintResponseInfo Version="3.00"><ServerDirectPrint><Response Success="false"><ErrorSummary>Data size is exceeded</ErrorSummary><ErrorDetail>Too many job requests</ErrorDetail></Response></ServerDirectPrint></PrintResponseInfo>`;
  assert.equal(
    parseResponseFile(v3).transportError,
    'Data size is exceeded: Too many job requests',
  );
});

test('SDP status notifications and the print request envelope', () => {
  const status =
    '<statusmonitor Version="1.00"><printerstatus devicename="kitchen_printer" asbstatus="0x00000001"/><printerstatus devicename="local_printer" asbstatus="0x0F00003C"/></statusmonitor>';
  assert.equal(parseStatusNotification(status), 0x0f00003c);
  const request = printRequestInfo('A1', '<epos-print xmlns="x"/>');
  assert.match(
    request,
    /^<\?xml version="1.0" encoding="utf-8"\?><PrintRequestInfo Version="2.00">/,
  );
  assert.match(
    request,
    /<devid>local_printer<\/devid><timeout>60000<\/timeout><printjobid>A1<\/printjobid>/,
  );
  assert.doesNotMatch(request, /Envelope/);
});
