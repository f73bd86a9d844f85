import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderEscposToPng } from '@printwire/shared/escpos/index';
import { encodeReceipt } from '@printwire/shared/receipt/index';
import { startHarness, type Harness } from '../../testing/harness.js';
import type { BootstrapResult } from '../../services/bootstrap.js';

const doc = {
  blocks: [
    { type: 'text', value: 'Preview me' },
    { type: 'image', src: 'https://example.com/logo.png', width: 100 },
    { type: 'cut' },
  ],
};

describe('POST /v1/receipt/preview', () => {
  let h: Harness;
  let org: BootstrapResult;
  before(async () => {
    h = await startHarness();
    org = await h.org('starter');
  });
  after(() => h.close());

  test('answers 201 with a PNG data URL, its size and warnings', async () => {
    const res = await h.call('POST', '/v1/receipt/preview', {
      key: org.liveKey,
      body: { document: doc },
    });
    assert.equal(res.status, 201);
    assert.match(res.body.image, /^data:image\/png;base64,/);
    const png = Buffer.from(res.body.image.split(',')[1], 'base64');
    const expected = await renderEscposToPng(
      encodeReceipt(doc, 'generic-80mm', { paper: '80mm', footer: false }),
      { paper: '80mm' },
    );
    assert.ok(png.equals(expected));
    assert.equal(res.body.width, 576);
    assert.equal(res.body.height, png.readUInt32BE(20));
    assert.ok(Array.isArray(res.body.warnings));
  });

  test('answers the PNG itself with Accept: image/png, for the profile, paper and footer asked', async () => {
    const res = await h.call('POST', '/v1/receipt/preview', {
      key: org.testKey,
      body: { document: doc, profile: 'generic-58mm', paper: '58mm', footer: true },
      headers: { accept: 'image/png' },
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const expected = await renderEscposToPng(
      encodeReceipt(doc, 'generic-58mm', { paper: '58mm', footer: true }),
      { paper: '58mm' },
    );
    assert.ok(res.raw.equals(expected));
  });

  test('an invalid document or unknown profile is 400 VALIDATION_FAILED naming the field', async () => {
    const bad = await h.call('POST', '/v1/receipt/preview', {
      key: org.liveKey,
      body: { document: { blocks: [{ type: 'text', value: 'x', size: 0 }] } },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'VALIDATION_FAILED');
    assert.equal(bad.body.error.details[0].path, 'document.blocks[0].size');
    const profile = await h.call('POST', '/v1/receipt/preview', {
      key: org.liveKey,
      body: { document: doc, profile: 'nope' },
    });
    assert.equal(profile.status, 400);
    assert.equal(profile.body.error.details[0].path, 'profile');
    const paper = await h.call('POST', '/v1/receipt/preview', {
      key: org.liveKey,
      body: { document: doc, paper: '110mm' },
    });
    assert.equal(paper.status, 400);
    assert.equal(paper.body.error.details[0].path, 'paper');
  });
});
