import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compileTemplate,
  renderTemplate,
  TemplateCache,
  TemplateError,
  type CompiledTemplate,
} from './index.js';

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

  test('templates without an id are cached by their text', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    const a = compileTemplate('{{x}}', 'html', { cache });
    assert.equal(compileTemplate('{{x}}', 'html', { cache }), a);
    assert.equal(cache.size, 1);
    assert.notEqual(compileTemplate('{{x}} ', 'html', { cache }), a);
    assert.equal(cache.size, 2);
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

describe('the cache is keyed by type, text and limits', () => {
  test('the same text as ZPL and as a receipt never shares an entry', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    const text = '{"type": "text", "value": "{{v}}"}';
    const zpl = compileTemplate(text, 'zpl', { cache });
    const receipt = compileTemplate(text, 'receipt', { cache });
    assert.notEqual(zpl, receipt);
    assert.equal(zpl.type, 'zpl');
    assert.equal(receipt.type, 'receipt');
    assert.equal(cache.size, 2);
    assert.equal(compileTemplate(text, 'zpl', { cache }), zpl);
    assert.equal(compileTemplate(text, 'receipt', { cache }), receipt);
    // Each keeps its own escaping: ZPL drops the caret, JSON escapes the quote.
    assert.equal(zpl.renderText({ v: '"^' }), '{"type": "text", "value": """}');
    assert.equal(receipt.renderText({ v: '"^' }), '{"type": "text", "value": "\\"^"}');
  });

  test('each type of the same text is its own entry through renderTemplate too', () => {
    const text = '<b>{{v}}</b>';
    assert.equal(renderTemplate(text, { v: '<' }, 'html'), '<b>&lt;</b>');
    assert.equal(renderTemplate(text, { v: '<' }, 'epl'), '<b><</b>');
    assert.equal(renderTemplate(text, { v: '<' }, 'html'), '<b>&lt;</b>');
  });

  test('other limits are another entry, and each still applies its own', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    const text = '{{#a}}{{#b}}x{{/b}}{{/a}}';
    const deep = compileTemplate(text, 'html', { cache });
    assert.throws(() => compileTemplate(text, 'html', { cache, maxDepth: 1 }), /nested deeper/);
    assert.throws(() => compileTemplate(text, 'html', { cache, maxTemplateBytes: 10 }), /limit/);
    const small = compileTemplate(text, 'html', { cache, maxOutputBytes: 1 });
    assert.notEqual(small, deep);
    assert.throws(() => small.render({ a: true, b: [1, 2] }), /maxOutputBytes/);
    assert.equal(deep.render({ a: true, b: [1, 2] }), 'xx');
    assert.equal(compileTemplate(text, 'html', { cache }), deep);
  });

  test('an id or version of 1 and of "1" are different entries', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    const a = compileTemplate('x', 'html', { cache, id: 't', version: 1 });
    const b = compileTemplate('x', 'html', { cache, id: 't', version: '1' });
    const c = compileTemplate('x', 'html', { cache });
    assert.equal(a.version, 1);
    assert.equal(b.version, '1');
    assert.equal(c.id, undefined);
    assert.equal(cache.size, 3);
  });

  test('a cached compiled template cannot be changed by the caller that got it', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    const t = compileTemplate('{{x}}', 'html', { cache });
    assert.throws(() => {
      (t as { render: unknown }).render = () => 'poisoned';
    }, TypeError);
    assert.equal(compileTemplate('{{x}}', 'html', { cache }).render({ x: 'ok' }), 'ok');
  });
});

describe('the cache is bounded', () => {
  test('a template longer than maxTemplateChars is compiled every time and cached never', () => {
    const cache = new TemplateCache<CompiledTemplate>({ maxTemplateChars: 10 });
    const kept = compileTemplate('{{x}}', 'html', { cache });
    const edge = '{{x}}67890'; // exactly 10
    assert.equal(
      compileTemplate(edge, 'html', { cache }),
      compileTemplate(edge, 'html', { cache }),
    );
    const long = '{{x}}678901';
    const first = compileTemplate(long, 'html', { cache });
    assert.notEqual(compileTemplate(long, 'html', { cache }), first);
    assert.equal(first.render({ x: 1 }), '1678901');
    assert.equal(cache.size, 2);
    assert.equal(compileTemplate('{{x}}', 'html', { cache }), kept);
  });

  test('the total text cached stays within maxTotalChars, dropping the least recently used', () => {
    const cache = new TemplateCache<CompiledTemplate>({ maxTotalChars: 20 });
    const a = compileTemplate('a'.repeat(8), 'html', { cache });
    compileTemplate('b'.repeat(8), 'html', { cache });
    assert.equal(cache.totalChars, 16);
    assert.equal(compileTemplate('a'.repeat(8), 'html', { cache }), a);
    compileTemplate('c'.repeat(4), 'html', { cache }); // 20: all fit
    assert.equal(cache.size, 3);
    compileTemplate('d'.repeat(1), 'html', { cache }); // 21: b, the oldest, goes
    assert.equal(cache.size, 3);
    assert.equal(cache.totalChars, 13);
    assert.equal(compileTemplate('a'.repeat(8), 'html', { cache }), a);
  });

  test('many different large templates keep the cache within its bounds', () => {
    const cache = new TemplateCache<CompiledTemplate>({ maxEntries: 5, maxTotalChars: 40_000 });
    const text = (i: number) => `${'x'.repeat(9_000)}{{v}}${String(i).padStart(4, '0')}`;
    for (let i = 0; i < 50; i++) compileTemplate(text(i), 'html', { cache });
    assert.equal(cache.size, 4);
    assert.ok(cache.totalChars <= 40_000);
    // The newest are those kept, and a long text is found again by its content.
    const again = compileTemplate(text(49), 'html', { cache });
    assert.equal(compileTemplate(`${text(49)}`.slice(0), 'html', { cache }), again);
    assert.equal(again.render({ v: '!' }).slice(-5), '!0049');
    assert.equal(cache.size, 4);
  });

  test('long texts that differ only at their end are different entries', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    const base = 'y'.repeat(5_000);
    const a = compileTemplate(`${base}a{{v}}`, 'html', { cache });
    const b = compileTemplate(`${base}b{{v}}`, 'html', { cache });
    assert.notEqual(a, b);
    assert.equal(compileTemplate(`${base}a{{v}}`, 'html', { cache }), a);
    assert.equal(b.render({ v: 1 }).slice(-2), 'b1');
  });

  test('the bounds must be whole numbers', () => {
    assert.throws(() => new TemplateCache({ maxEntries: 0 }), /maxEntries must be/);
    assert.throws(() => new TemplateCache({ maxTemplateChars: 1.5 }), /maxTemplateChars must be/);
    assert.throws(() => new TemplateCache({ maxTotalChars: -1 }), /maxTotalChars must be/);
  });
});

describe('templates that fail are not cached', () => {
  test('a template that does not compile fails every time and leaves no entry', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    for (let i = 0; i < 2; i++) {
      assert.throws(
        () => compileTemplate('{{#a}}', 'html', { cache }),
        (e: unknown) => e instanceof TemplateError && e.line === 1 && e.column === 1,
      );
    }
    assert.equal(cache.size, 0);
  });

  test('a failed compile keeps the earlier entry of the same key', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    const ok = compileTemplate('{{#a}}{{/a}}', 'html', { cache });
    assert.throws(() => compileTemplate('{{#a}}{{/a}}', 'html', { cache, maxDepth: 0 }));
    assert.equal(compileTemplate('{{#a}}{{/a}}', 'html', { cache }), ok);
    assert.equal(cache.size, 1);
  });

  test('data a cached template cannot render fails each render alike', () => {
    const cache = new TemplateCache<CompiledTemplate>();
    const text = '{"blocks": [{"type": "feed", "lines": {{n}}}]}';
    for (let i = 0; i < 2; i++) {
      assert.throws(
        () => renderTemplate(text, { n: 999 }, 'receipt', { cache }),
        /blocks\[0\]\.lines: must be 1-255/,
      );
    }
    assert.equal(renderTemplate(text, { n: 2 }, 'receipt', { cache }), text.replace('{{n}}', '2'));
  });
});
