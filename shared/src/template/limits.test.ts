import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compileTemplate,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_MAX_TEMPLATE_BYTES,
  renderTemplate,
} from './index.js';

describe('limits', () => {
  test('the defaults are 2 MiB of template, 10 MiB of output and 32 nested sections', () => {
    assert.equal(DEFAULT_MAX_TEMPLATE_BYTES, 2 * 1024 * 1024);
    assert.equal(DEFAULT_MAX_OUTPUT_BYTES, 10 * 1024 * 1024);
    assert.equal(DEFAULT_MAX_DEPTH, 32);
  });

  test('a template of exactly maxTemplateBytes compiles and one byte more is refused', () => {
    const ok = 'é'.repeat(5) + 'x'.repeat(10) + '{{a}}'; // 10 + 10 + 5 = 25 bytes
    assert.equal(renderTemplate(ok, { a: '!' }, 'epl', { maxTemplateBytes: 25 }).length, 16);
    assert.throws(() => renderTemplate(ok + ' ', {}, 'epl', { maxTemplateBytes: 25 }), {
      name: 'TemplateError',
      message: 'the template is 26 bytes, more than the limit of 25 bytes (maxTemplateBytes)',
    });
  });

  test('the default template limit applies without options', () => {
    const big = 'x'.repeat(DEFAULT_MAX_TEMPLATE_BYTES);
    assert.equal(renderTemplate(big, {}, 'html').length, DEFAULT_MAX_TEMPLATE_BYTES);
    assert.throws(() => renderTemplate(big + 'x', {}, 'html'), /maxTemplateBytes/);
  });

  test('sections nested exactly maxDepth deep compile and one more level is refused', () => {
    const nest = (n: number) => '{{#a}}'.repeat(n) + 'x' + '{{/a}}'.repeat(n);
    assert.equal(renderTemplate(nest(3), { a: true }, 'html', { maxDepth: 3 }), 'x');
    assert.throws(() => renderTemplate(nest(4), { a: true }, 'html', { maxDepth: 3 }), {
      message: 'line 1, column 19: sections nested deeper than 3 levels (section "a")',
    });
    assert.equal(renderTemplate(nest(DEFAULT_MAX_DEPTH), { a: true }, 'html'), 'x');
    assert.throws(
      () => renderTemplate(nest(DEFAULT_MAX_DEPTH + 1), { a: true }, 'html'),
      /deeper than 32/,
    );
  });

  test('output of exactly maxOutputBytes renders and one byte more fails with no partial output', () => {
    const t = '{{#rows}}{{v}}{{/rows}}';
    const rows = (n: number) => Array.from({ length: n }, () => ({ v: 'é' })); // 2 bytes each
    assert.equal(renderTemplate(t, { rows: rows(50) }, 'html', { maxOutputBytes: 100 }).length, 50);
    assert.throws(() => renderTemplate(t, { rows: rows(50) }, 'html', { maxOutputBytes: 99 }), {
      name: 'TemplateError',
      message: 'the rendered output exceeds the limit of 99 bytes (maxOutputBytes)',
    });
  });

  test('a render can lower or raise the output limit set at compile time', () => {
    const compiled = compileTemplate('{{v}}', 'html', { maxOutputBytes: 4 });
    assert.equal(compiled.render({ v: 'abcd' }), 'abcd');
    assert.throws(() => compiled.render({ v: 'abcde' }), /limit of 4 bytes/);
    assert.equal(compiled.render({ v: 'abcde' }, { maxOutputBytes: 5 }), 'abcde');
    assert.throws(() => compiled.render({ v: 'abc' }, { maxOutputBytes: 2 }), /limit of 2 bytes/);
  });

  test('a runaway list stops as soon as the output passes the limit and names the section', () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => i);
    assert.throws(
      () =>
        renderTemplate('\n {{#rows}}{{.}}{{/rows}}', { rows }, 'html', { maxOutputBytes: 1000 }),
      {
        message:
          'line 2, column 2: the rendered output exceeds the limit of 1000 bytes (maxOutputBytes)',
      },
    );
  });

  test('data nested too deeply to print as JSON is an error, not a crash', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.throws(() => renderTemplate('{{d}}', { d: deep }, 'html'), {
      name: 'TemplateError',
      message: 'line 1, column 1: the value of "d" is nested too deeply to print as JSON',
    });
  });
});
