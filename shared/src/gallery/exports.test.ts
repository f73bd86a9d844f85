import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as shared from '../index.js';

test('the package root exports the template engine and the gallery', () => {
  assert.equal(typeof shared.renderTemplate, 'function');
  assert.equal(typeof shared.compileTemplate, 'function');
  assert.equal(typeof shared.renderReceiptDocument, 'function');
  assert.equal(typeof shared.TemplateError, 'function');
  assert.equal(shared.gallery.length, 20);
  const t = shared.getGalleryTemplate('label-shipping-4x6')!;
  assert.match(shared.renderTemplate(t.content, t.sampleData, t.type), /^\^XA/);
});
