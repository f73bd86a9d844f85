import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTemplate } from './index.js';

describe('rule 1: how values print', () => {
  test('a missing value prints nothing', () => {
    assert.equal(renderTemplate('[{{a}}][{{a.b.c}}][{{n}}]', { n: null }, 'html'), '[][][]');
  });

  test('numbers, true and false print as in JSON', () => {
    const data = { i: 42, f: -1.5, e: 1e21, t: true, f2: false, z: 0 };
    assert.equal(
      renderTemplate('{{i}} {{f}} {{e}} {{t}} {{f2}} {{z}}', data, 'epl'),
      '42 -1.5 1e+21 true false 0',
    );
  });

  test('objects and lists print as JSON, then escaped for the type', () => {
    const data = { o: { a: 1, b: 'x' }, l: [1, 'two'] };
    assert.equal(renderTemplate('{{{o}}} {{{l}}}', data, 'html'), '{"a":1,"b":"x"} [1,"two"]');
    assert.equal(renderTemplate('{{l}}', data, 'html'), '[1,&quot;two&quot;]');
    assert.equal(renderTemplate('"{{o}}"', data, 'epl'), '"{\\"a\\":1,\\"b\\":\\"x\\"}"');
  });

  test('data that refers to itself cannot render and names the tag', () => {
    const o: Record<string, unknown> = {};
    o.self = o;
    assert.throws(() => renderTemplate('a\n  {{o}}', { o }, 'html'), {
      name: 'TemplateError',
      message: 'line 2, column 3: the value of "o" refers to itself to print as JSON',
    });
  });
});

describe('rule 2: values can never become printer commands', () => {
  test('ZPL: in a ^FH field ^, ~, the indicator and control characters become hex codes', () => {
    const out = renderTemplate('^XA^FO10,10^FH^FD{{v}}^FS^XZ', { v: 'A^B~C_D\nE' }, 'zpl');
    assert.equal(out, '^XA^FO10,10^FH^FDA_5EB_7EC_5FD_0AE^FS^XZ');
  });

  test('ZPL: with ^FH\\ the backslash is the indicator', () => {
    const out = renderTemplate('^XA^FH\\^FD{{v}}^FS^XZ', { v: '^XZ\\_' }, 'zpl');
    assert.equal(out, '^XA^FH\\^FD\\5EXZ\\5C_^FS^XZ');
  });

  test('ZPL: outside a ^FH field those characters are removed', () => {
    const data = { v: '^XA~JR\u0003x_y' };
    assert.equal(
      renderTemplate('^XA^FO0,0^FD{{v}}^FS^XZ', data, 'zpl'),
      '^XA^FO0,0^FDXAJRx_y^FS^XZ',
    );
    assert.equal(renderTemplate('^XA^PQ{{v}}^XZ', data, 'zpl'), '^XA^PQXAJRx_y^XZ');
  });

  test('EPL: outside quotes, quotes, backslashes and line breaks are removed', () => {
    const out = renderTemplate('P{{n}}\n', { n: '1"\\\nP9' }, 'epl');
    assert.equal(out, 'P1P9\n');
  });

  test('EPL: quotes and backslashes get a backslash and line breaks are removed', () => {
    const out = renderTemplate(
      'A10,10,0,3,1,1,N,"{{v}}"\nP1\n',
      { v: 'say "hi" \\ now\r\nP9' },
      'epl',
    );
    assert.equal(out, 'A10,10,0,3,1,1,N,"say \\"hi\\" \\\\ nowP9"\nP1\n');
  });

  test('HTML: values are HTML-escaped and {{{html}}} inserts trusted HTML', () => {
    const data = { v: `</script><img src=x onerror="alert('1')">&`, h: '<em>ok</em>' };
    assert.equal(
      renderTemplate('<p>{{v}}</p>{{{h}}}', data, 'html'),
      '<p>&lt;/script&gt;&lt;img src&#61;x onerror&#61;&quot;alert(&#39;1&#39;)&quot;&gt;&amp;</p><em>ok</em>',
    );
  });
});
