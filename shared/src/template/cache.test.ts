import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, TemplateCache, type CompiledTemplate } from './index.js';

describe('compiled templates are cached by id and version', () => {
  test('the same id and version give the same compiled template', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    const a = compileTemplate('{{x}}', 'html', { id: 'tpl_1', version: 1, cache });
    const b = compileTemplate('{{x}}', 'html', { id: 'tpl_1', version: 1, cache });
    assert.equal(a, b);
    assert.equal(a.render({ x: 'hi' }), 'hi');
  });

  test('a new version compiles afresh', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    const v1 = compileTemplate('v1 {{x}}', 'html', { id: 't', version: 1, cache });
    const v2 = compileTemplate('v2 {{x}}', 'html', { id: 't', version: 2, cache });
    assert.notEqual(v1, v2);
    assert.equal(v2.render({ x: 1 }), 'v2 1');
  });

  test('changed content under the same version is not served from the cache', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    compileTemplate('old {{x}}', 'html', { id: 't', version: 1, cache });
    assert.equal(
      compileTemplate('new {{x}}', 'html', { id: 't', version: 1, cache }).render({ x: 1 }),
      'new 1',
    );
  });

  test('templates without an id are not cached', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    assert.notEqual(
      compileTemplate('{{x}}', 'html', { cache }),
      compileTemplate('{{x}}', 'html', { cache }),
    );
    assert.equal(cache.size, 0);
  });

  test('the cache keeps at most maxEntries and drops the least recently used', () => {
    const cache = new TemplateCache<CompiledTemplate>({ maxEntries: 2 });
    const a = compileTemplate('a', 'html', { id: 'a', cache });
    compileTemplate('b', 'html', { id: 'b', cache });
    assert.equal(compileTemplate('a', 'html', { id: 'a', cache }), a); // a is now the most recent
    compileTemplate('c', 'html', { id: 'c', cache }); // evicts b
    assert.equal(cache.size, 2);
    assert.equal(compileTemplate('a', 'html', { id: 'a', cache }), a);
    const b2 = compileTemplate('b', 'html', { id: 'b', cache });
    assert.equal(compileTemplate('b', 'html', { id: 'b', cache }), b2);
  });

  test('the same id for another type is another template', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    const h = compileTemplate('"{{x}}"', 'html', { id: 't', cache });
    const e = compileTemplate('"{{x}}"', 'epl', { id: 't', cache });
    assert.equal(h.render({ x: '"' }), '"&quot;"');
    assert.equal(e.render({ x: '"' }), '"\\""');
  });
});
