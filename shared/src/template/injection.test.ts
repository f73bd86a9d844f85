/**
 * Property tests for rule 2: with hostile values (printer commands, quotes, backslashes, line
 * breaks, markup, control characters, very long strings) the command structure of the output is
 * the same as with harmless values.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compileTemplate,
  renderReceiptDocument,
  renderTemplate,
  TemplateError,
  zplCommands,
  type TemplateType,
} from './index.js';
import { hostileLike, seededRandom } from './hostile.js';

const RUNS = 150;

/** Output that is not even readable, which is acceptable only when render() refuses it. */
const UNREADABLE = Symbol('unreadable');

function property(
  type: TemplateType,
  template: string,
  harmless: unknown,
  structure: (output: string) => unknown,
): void {
  const compiled = compileTemplate(template, type);
  const expected = structure(compiled.renderText(harmless));
  let compared = 0;
  for (let seed = 1; seed <= RUNS; seed++) {
    const data = hostileLike(harmless, seededRandom(seed));
    const actual = structure(compiled.renderText(data));
    if (actual === UNREADABLE) {
      assert.throws(() => compiled.render(data), TemplateError, `seed ${seed}`);
      continue;
    }
    compared++;
    assert.deepEqual(actual, expected, `seed ${seed}: ${JSON.stringify(data).slice(0, 300)}`);
  }
  assert.ok(compared > RUNS / 2, `only ${compared} of ${RUNS} runs could be compared`);
}

const items = [
  { name: 'Soup', sku: '100', price: '4.50', bold: true },
  { name: 'Bread', sku: '200', price: '1.20', bold: false },
  { name: 'Tea', sku: '300', price: '2.00', bold: true },
];

describe('ZPL: hostile values never change the sequence of commands', () => {
  const data = { title: 'Label', code: '12345', qty: '1', x: '10', items };
  const templates: Record<string, string> = {
    '^FH fields, plain fields and parameters':
      '^XA\n^FO{{x}},20^A0N,30,30^FH^FD{{title}}^FS\n^FO20,60^FD{{title}} {{code}}^FS\n^BY2^BCN,80,Y^FD{{code}}^FS\n{{#items}}\n^FO20,{{x}}^FH^FD{{#bold}}*{{/bold}}{{name}} {{price}}^FS\n{{/items}}\n^PQ{{qty}}\n^XZ',
    '^FH with the backslash indicator': '^XA^FH\\^FD{{title}}\\5E{{code}}^FS^FX {{title}}\n^XZ',
    'a template that changes the caret and tilde':
      '^XA^CC!\n~CT+\n!FO0,0!FH!FD{{title}}!FS!FO0,0!FD{{code}}!FS!XZ',
  };
  for (const [title, template] of Object.entries(templates)) {
    test(title, () => property('zpl', template, data, zplCommands));
  }
});

function eplLines(output: string): string[] {
  return output.split('\n').map((line) => {
    let quoted = 0;
    let inQuote = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (inQuote && c === '\\') i++;
      else if (c === '"') {
        inQuote = !inQuote;
        if (inQuote) quoted++;
      }
    }
    assert.equal(inQuote, false, `unterminated quote in ${line.slice(0, 80)}`);
    return `${line.charAt(0)} with ${quoted} quoted`;
  });
}

test('EPL: hostile values never change the lines, commands or quoted strings', () => {
  const template =
    'N\nq812\nA20,20,0,4,1,1,N,"{{title}}"\nB20,80,0,1,2,6,80,B,"{{code}}"\n{{#items}}\nA20,{{x}},0,3,1,1,N,"{{name}} {{price}}"\n{{/items}}\nP{{qty}}\n';
  const data = {
    title: 'Price',
    code: '12345',
    qty: '1',
    items: items.map((i) => ({ ...i, x: '10' })),
  };
  property('epl', template, data, eplLines);
});

function receiptShape(output: string): unknown {
  let doc: { blocks: Array<Record<string, unknown>> };
  try {
    doc = JSON.parse(output) as typeof doc;
  } catch {
    return UNREADABLE; // a missing value where a JSON value belongs prints nothing (rule 1)
  }
  return {
    keys: Object.keys(doc).sort(),
    blocks: doc.blocks.map((b) => `${String(b.type)}: ${Object.keys(b).sort().join(',')}`),
  };
}

describe('receipts: hostile values never change the JSON structure or the blocks', () => {
  const data = { shop: 'Fournil', date: '2026-11-21', size: 2, lines: '3', items, total: '9.70' };
  const template = `{
  "width": "80mm",
  "blocks": [
    {"type": "text", "value": "{{shop}} - {{date}}", "size": {{size}}, "bold": true},
    {{#items}}
    {"type": "pair", "left": "{{name}}", "right": "{{price}}", "bold": {{bold}}},
    {{/items}}
    {"type": "table", "columns": [{"width": 0.5}, {"width": 0.5, "align": "right"}],
     "rows": [{{#items}}["{{sku}}", "{{price}}"]{{^@last}}, {{/@last}}{{/items}}]},
    {"type": "barcode", "format": "CODE128", "value": "{{total}}"},
    {"type": "feed", "lines": {{lines}}},
    {"type": "cut"}
  ]
}`;

  test('the blocks and their fields stay the same', () => {
    property('receipt', template, data, receiptShape);
  });

  test('a hostile render either validates or fails with a TemplateError, never half a receipt', () => {
    const compiled = compileTemplate(template, 'receipt');
    let failures = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const hostile = hostileLike(data, seededRandom(seed));
      try {
        const doc = JSON.parse(compiled.render(hostile)) as { blocks: unknown[] };
        assert.equal(doc.blocks.length, 8);
      } catch (error) {
        assert.ok(error instanceof TemplateError, String(error));
        assert.match(
          error.message,
          /^rendered output line \d+, column \d+: the rendered receipt is not (JSON|a valid receipt document)/,
        );
        failures++;
      }
    }
    // Hostile sizes and feed lines are strings, which the document refuses.
    assert.ok(failures > 0);
  });
});

function htmlTags(output: string): string[] {
  const tags: string[] = [];
  for (const m of output.matchAll(/<(\/?[a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|<!--|-->/g)) {
    if (m[1] === undefined) {
      tags.push(m[0]);
      continue;
    }
    const attrs = [
      ...(m[2] ?? '').matchAll(/([^\s=/"']+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?/g),
    ];
    tags.push(`${m[1]}(${attrs.map((a) => a[1]).join(' ')})`);
  }
  return tags;
}

test('HTML: hostile values never change the tags or their attributes', () => {
  const template = `<!doctype html>
<html lang="{{lang}}"><head><title>{{title}}</title>
<style>@page { size: A4; margin: 15mm }</style></head>
<body><h1 class="title" data-id='{{code}}'>{{title}}</h1>
<table>{{#items}}<tr class="{{#bold}}strong{{/bold}}"><td title="{{name}}">{{name}}</td><td>{{price}}</td></tr>{{/items}}</table>
<!-- {{code}} -->
<p>{{code}}</p></body></html>`;
  const data = { lang: 'fr', title: 'Devis', code: 'Q-1', items };
  property('html', template, data, htmlTags);
});

describe('the cache and the receipt check keep values from becoming printer commands', () => {
  test('one text cached as ZPL and as a receipt escapes hostile values for each type', () => {
    // Valid as both: a ZPL field holding a JSON string, and a receipt whose text reads as ZPL.
    const template =
      '{"blocks": [{"type": "text", "value": "^XA^FO20,20^FH^FD{{v}}^FS^XZ"}, {"type": "cut"}]}';
    const expectedZpl = zplCommands(renderTemplate(template, { v: 'Label' }, 'zpl'));
    let validated = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const data = hostileLike({ v: 'Label' }, seededRandom(seed), { stringsOnly: true });
      // Alternating types on the default cache: each render finds its own type's entry.
      const zpl = renderTemplate(template, data, 'zpl');
      assert.deepEqual(zplCommands(zpl), expectedZpl, `seed ${seed}`);
      try {
        const receipt = renderReceiptDocument(template, data);
        assert.equal(receipt.blocks.length, 2, `seed ${seed}`);
        assert.equal(receipt.blocks[1]!.type, 'cut');
        validated++;
      } catch (error) {
        assert.ok(error instanceof TemplateError, String(error)); // too long a text, say
      }
      assert.equal(renderTemplate(template, data, 'zpl'), zpl);
    }
    assert.ok(validated > 30, `only ${validated} of 60 receipts validated`);
  });

  test('a validated receipt never carries control characters that came from values', () => {
    const template =
      '{"blocks": [{"type": "text", "value": "{{v}}"}, {"type": "pair", "left": "{{v}}", "right": {{v}}}]}';
    let checked = 0;
    for (let seed = 1; seed <= 80; seed++) {
      const data = hostileLike({ v: 'Label' }, seededRandom(seed), { stringsOnly: true });
      let doc;
      try {
        doc = renderReceiptDocument(template, data);
      } catch (error) {
        assert.ok(error instanceof TemplateError, String(error));
        continue; // too long for a pair, say: refused whole
      }
      checked++;
      for (const value of JSON.stringify(doc).match(/"(?:[^"\\]|\\.)*"/g) ?? []) {
        const text = JSON.parse(value) as string;
        assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f]/, `seed ${seed}`);
      }
    }
    assert.ok(checked > 40, `only ${checked} of 80 renders validated`);
  });
});
