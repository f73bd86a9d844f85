import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compileTemplate, renderReceiptDocument, renderTemplate, TemplateError } from './index.js';

const receipt = (blocks: string) => `{"width": "80mm", "blocks": [${blocks}]}`;

describe('receipt templates', () => {
  test('values inside JSON strings are written as JSON string content', () => {
    const out = renderTemplate(
      receipt('{"type": "text", "value": "{{v}}"}'),
      { v: 'say "hi"\\\nnext\ttab' },
      'receipt',
    );
    assert.equal(out, receipt('{"type": "text", "value": "say \\"hi\\"\\\\\\nnext\\ttab"}'));
    const doc = JSON.parse(out) as { blocks: Array<{ value: string }> };
    assert.equal(doc.blocks[0]!.value, 'say "hi"\\\nnext\ttab');
  });

  test('printer control characters in values are removed, so ESC and GS never reach the encoder', () => {
    const doc = renderReceiptDocument(receipt('{"type": "text", "value": "{{v}}"}'), {
      v: 'a\u001b@b\u001dV\u0000c',
    });
    assert.equal((doc.blocks[0] as { value: string }).value, 'a@bVc');
  });

  test('a value between JSON tokens prints as one JSON value', () => {
    const t = receipt(
      '{"type": "text", "value": "x", "size": {{size}}, "bold": {{bold}}}, {"type": "feed", "lines": {{lines}}}',
    );
    const doc = renderReceiptDocument(t, { size: 2, bold: true, lines: '3' });
    assert.deepEqual(
      JSON.parse(compileTemplate(t, 'receipt').render({ size: 2, bold: true, lines: '3' })),
      {
        width: '80mm',
        blocks: [
          { type: 'text', value: 'x', size: 2, bold: true },
          { type: 'feed', lines: 3 },
        ],
      },
    );
    assert.equal(doc.blocks.length, 2);
  });

  test('a string between JSON tokens becomes a quoted string and cannot add blocks', () => {
    const t = receipt('{"type": "feed", "lines": {{lines}}}');
    const text = compileTemplate(t, 'receipt').renderText({ lines: '1}, {"type": "cut"' });
    assert.equal(text, receipt('{"type": "feed", "lines": "1}, {\\"type\\": \\"cut\\""}'));
    assert.throws(() => renderTemplate(t, { lines: '1}, {"type": "cut"' }, 'receipt'), {
      name: 'TemplateError',
      message:
        /^rendered output line 1, column 56: the rendered receipt is not a valid receipt document: blocks\[0\]\.lines: /,
    });
  });

  test('{{{rows}}} inserts a list as JSON', () => {
    const t = receipt(
      '{"type": "table", "columns": [{"width": 0.5}, {"width": 0.5}], "rows": {{{rows}}}}',
    );
    const rows = [
      ['Soup', '4.50'],
      ['Tea "green"', '2.00'],
    ];
    const doc = renderReceiptDocument(t, { rows });
    assert.deepEqual((doc.blocks[0] as { rows: unknown }).rows, rows);
  });

  test('an escaped list between tokens is a JSON string, not structure', () => {
    const t = receipt('{"type": "text", "value": {{rows}}}');
    const doc = renderReceiptDocument(t, { rows: [{ type: 'cut' }] });
    assert.deepEqual(
      doc.blocks.map((b) => [b.type, (b as { value?: string }).value]),
      [['text', '[{"type":"cut"}]']],
    );
  });

  test('a render that is not JSON fails and names the line and column of the output', () => {
    const t = '{\n  "blocks": [\n    {"type": "feed", "lines": {{lines}}}\n  ]\n}';
    assert.throws(
      () => renderTemplate(t, {}, 'receipt'),
      (error: unknown) => {
        assert.ok(error instanceof TemplateError);
        assert.equal(error.inOutput, true);
        assert.match(
          String(error),
          /^TemplateError: rendered output line 3, column 31: the rendered receipt is not JSON: expected a JSON value/,
        );
        return true;
      },
    );
  });

  test('a render that is not a valid document fails with every issue in details', () => {
    const t = receipt('{"type": "text", "value": "{{v}}", "size": {{size}}}');
    assert.throws(
      () => renderTemplate(t, { v: 'x', size: 9 }, 'receipt'),
      (error: unknown) => {
        assert.ok(error instanceof TemplateError);
        assert.equal(error.code, 'INVALID_JOB');
        assert.equal(
          error.message,
          'rendered output line 1, column 69: the rendered receipt is not a valid receipt document: blocks[0].size: must be 1-8',
        );
        assert.deepEqual(error.details, [
          { path: 'blocks[0].size', message: 'blocks[0].size: must be 1-8' },
        ]);
        return true;
      },
    );
  });

  test('a value cannot be written into the printer bytes of a raw block', () => {
    assert.throws(
      () => compileTemplate(receipt('{"type": "raw", "data": "{{bytes}}"}'), 'receipt'),
      {
        message: /^line 1, column 55: a value cannot be written into "data"/,
      },
    );
    assert.throws(
      () => compileTemplate(receipt('{"type": "raw", "data": {{bytes}}}'), 'receipt'),
      /"data"/,
    );
  });

  test('a value right after a backslash in a JSON string is refused', () => {
    assert.throws(
      () => compileTemplate(receipt('{"type": "text", "value": "\\{{v}}"}'), 'receipt'),
      {
        message: 'line 1, column 58: a value cannot follow a backslash in a JSON string',
      },
    );
  });

  test('a section must not start inside a JSON string and end outside it', () => {
    assert.throws(() => compileTemplate('{"a": "{{#x}}x"{{/x}}}', 'receipt'), {
      message: `line 1, column 8: section "x" must start and end on the same side of a JSON string's quotes`,
    });
  });

  test('the benchmark template renders to a valid document with every item', () => {
    const bench = new URL('../../../test/fixtures/bench/', import.meta.url);
    const content = readFileSync(new URL('template-receipt.mustache', bench), 'utf8');
    const data = JSON.parse(readFileSync(new URL('template-receipt.data.json', bench), 'utf8')) as {
      items: unknown[];
    };
    const doc = renderReceiptDocument(content, data);
    assert.equal(doc.blocks.length, 6 + 2 * data.items.length + 3);
    assert.deepEqual(
      doc.blocks
        .slice(6, 8)
        .map((b) => [b.type, (b as { value?: string }).value ?? (b as { left?: string }).left]),
      [
        ['pair', '1 x Article numero 0 "special"'],
        ['text', '  sku SKU-1000'],
      ],
    );
  });
});
