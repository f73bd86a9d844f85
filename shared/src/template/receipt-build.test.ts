import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gallery } from '../gallery/index.js';
import { compileNodes, RenderState } from './compile.js';
import { positionAt } from './errors.js';
import { hostileLike, seededRandom } from './hostile.js';
import { tokenize } from './lexer.js';
import { parse } from './parser.js';
import { compileReceiptBuilder } from './receipt-build.js';
import { renderReceiptDocument, renderTemplate } from './index.js';
import { validateReceiptDocument } from '../receipt/schema.js';

function compile(template: string) {
  const nodes = parse(template, tokenize(template), 32);
  const text = compileNodes(template, nodes, 'receipt'); // refuses what compileTemplate refuses
  const build = compileReceiptBuilder(nodes, (offset) => () => positionAt(template, offset));
  return { text, build };
}

/**
 * Renders `data` both ways. Where the builder builds, JSON.parse of the text must give the very
 * same value (prototypes, -0 and key order included). Returns whether the builder built.
 */
function agree(template: string, data: unknown, label = template): boolean {
  const { text, build } = compile(template);
  const st = new RenderState(data, Infinity);
  text(st);
  const built = build?.(new RenderState(data, Infinity));
  if (built === undefined) return false;
  let parsed: unknown;
  assert.doesNotThrow(
    () => {
      parsed = JSON.parse(st.out);
    },
    `${label}: built what does not parse: ${st.out.slice(0, 200)}`,
  );
  assert.deepStrictEqual(built, parsed, label);
  assert.equal(JSON.stringify(built), JSON.stringify(parsed), label);
  return true;
}

describe('a receipt built from the data is what parsing the rendered text gives', () => {
  const receipts = gallery.filter((g) => g.type === 'receipt');

  test('for every gallery receipt, with its sample data and with hostile data', () => {
    assert.ok(receipts.length >= 5);
    for (const g of receipts) {
      assert.equal(agree(g.content, g.sampleData, g.id), true, `${g.id} is built`);
      for (let seed = 1; seed <= 30; seed++) {
        agree(g.content, hostileLike(g.sampleData, seededRandom(seed)), `${g.id} seed ${seed}`);
        const strings = hostileLike(g.sampleData, seededRandom(seed), { stringsOnly: true });
        agree(g.content, strings, `${g.id} seed ${seed} (strings)`);
      }
    }
  });

  test('for the values that print in JSON and in strings', () => {
    const template = '{"a": {{v}}, "b": "<{{v}}>", "c": [{{{v}}}], "d": "{{{v}}}"}';
    const values: unknown[] = [
      'text',
      '12',
      '-0',
      '1e400',
      '01',
      'a"b\\c\n\td\u0001e\u001bf\u007fg',
      '\ud800 lone',
      '\ud83d\ude00',
      0,
      -0,
      1.5e300,
      NaN,
      Infinity,
      true,
      false,
      null,
      undefined,
      10n ** 30n,
      { x: [1, 'y'] },
      [1, 2],
      [],
      ' ',
      '\u00a0',
      '1, 2',
      '"quoted"',
      () => 1,
    ];
    let built = 0;
    for (const v of values) if (agree(template, { v }, `${String(v)}`)) built++;
    for (const v of values) {
      agree('{"a": {{{v}}}}', { v }, `raw ${String(v)}`);
      agree('[{{v}}]', { v }, `alone ${String(v)}`);
      agree('{"{{v}}": 1}', { v }, `key ${String(v)}`);
      agree('{ {{v}}: 1}', { v }, `bare key ${String(v)}`);
    }
    assert.ok(built > 5);
  });

  test('for templates whose JSON depends on the data (sections, commas, keys)', () => {
    const cases: Array<[string, unknown]> = [
      ['[{{#xs}}{{.}},{{/xs}}0]', { xs: [1, 2] }],
      ['[{{#xs}}{{.}},{{/xs}}]', { xs: [1, 2] }],
      ['[{{#xs}}{{.}},{{/xs}}]', { xs: [] }],
      ['[{{#xs}}{{.}}{{^@last}},{{/@last}}{{/xs}}]', { xs: [1, 2, 3] }],
      ['{"a": 1 {{#b}}, "b": 2{{/b}} }', { b: true }],
      ['{"a": 1 {{#b}}, "b": 2{{/b}} }', { b: false }],
      ['{"a": 1, "a": 2, "__proto__": 3}', {}],
      ['{"a": 1, "a": {{v}}}', { v: 2 }],
      ['{"\\u005f_proto__": {"x": 1}}', {}],
      ['{"{{k}}": 1}', { k: '__proto__' }],
      ['{"a": "x{{#b}}", "c": "y{{/b}}"}', { b: true }],
      ['{"a": "x{{#b}}", "c": "y{{/b}}"}', { b: false }],
      ['{"a": "\\ud83d{{v}}\\ude00"}', { v: '' }],
      ['{"a": "\\u00{{#b}}41{{/b}}"}', { b: true }],
      ['{"a": 1{{v}}}', { v: 2 }],
      ['{"a": {{v}}{{w}}}', { v: 1, w: 2 }],
      ['{"a": tr{{v}}}', { v: 'ue' }],
      ['{"a": -{{v}}}', { v: 1 }],
      ['{"a": {{v}}0}', { v: 1 }],
      ['{"a": [1, 2,]}', {}],
      ['{"a": 1,}', {}],
      ['{"a" 1}', {}],
      ['{} {}', {}],
      ['', {}],
      ['   ', {}],
      ['"text"', {}],
      ['{{v}}', { v: 3 }],
      ['{{{v}}}', { v: '{"blocks": []}' }],
      ['{"blocks": [{{{rows}}}]}', { rows: '{"type": "cut"}, {"type": "feed"}' }],
      ['{"blocks": {{{rows}}}}', { rows: [{ type: 'cut' }] }],
      ['{"a": "{{{v}}}"}', { v: 'x"y' }],
      ['{"a": "{{{v}}}"}', { v: 'tab\there' }],
      ['{"a": "raw\tcontrol"}', {}],
      ['{"a":\u00a01}', {}],
      ['[{{#t}}{{{v}}}{{/t}}]', { t: true, v: '\u00a0' }], // not JSON's whitespace
      ['[{{#t}}{{{v}}}{{/t}}]', { t: true, v: ' \n' }],
      ['{"a": {{#n}}{{.}}{{/n}}}', { n: 5 }],
      ['{"a": [{{#xs}}"{{.}}"{{#@first}},{{/@first}}{{/xs}}]}', { xs: ['a', 'b'] }],
      ['{"a": [{{#xs}}"{{.}}"{{#@first}},{{/@first}}{{/xs}}]}', { xs: ['a', 'b', 'c'] }],
    ];
    for (const [template, data] of cases)
      agree(template, data, `${template} ${JSON.stringify(data)}`);
  });

  test('for random templates of JSON fragments, values and sections', () => {
    const random = seededRandom(7);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const FRAGMENTS = ['{', '}', '[', ']', ',', ':', ' ', '"k"', '"s', 'x"', '1', 'true', 'null'];
    const TAGS = ['{{v}}', '{{{v}}}', '{{n}}', '{{o}}', '{{missing}}', '{{.}}', '{{@index}}'];
    const data = { v: 'a"b', n: -0, o: { p: 1 }, xs: [1, '2', { v: 'in' }], t: true, f: false };
    let built = 0;
    for (let i = 0; i < 3000; i++) {
      // A well-formed skeleton most of the time, so that many of them build.
      let template = pick(['{"a": ', '[', '{"blocks": [', '']);
      for (let n = Math.floor(random() * 8); n > 0; n--) {
        const r = random();
        if (r < 0.45) template += pick(FRAGMENTS);
        else if (r < 0.75) template += pick(TAGS);
        else {
          const name = pick(['xs', 't', 'f', 'missing']);
          const inner = pick(['{{.}},', '"{{.}}",', '{"x": {{v}}},', '1,', ' ']);
          template += `{{${pick(['#', '^'])}${name}}}${inner}{{/${name}}}`;
        }
      }
      template += pick(['}', ']', ']}', '0]', '"z"}', '']);
      try {
        compile(template);
      } catch {
        continue; // a section that changes the string mode, say: refused by the compiler
      }
      if (agree(template, data, `case ${i}: ${template}`)) built++;
    }
    assert.ok(built > 100, `only ${built} templates were built`);
  });
});

test('renderReceiptDocument returns the document of the rendered text, built or parsed', () => {
  for (const g of gallery.filter((t) => t.type === 'receipt')) {
    const text = renderTemplate(g.content, g.sampleData, 'receipt');
    const expected = validateReceiptDocument(JSON.parse(text));
    assert.ok(expected.ok);
    assert.deepStrictEqual(renderReceiptDocument(g.content, g.sampleData), expected.document);
  }
  // A raw value between tokens is parsed on its own and takes its place in the document.
  const template = '{"blocks": [{{#t}}{{{block}}}{{/t}}]}';
  assert.deepStrictEqual(renderReceiptDocument(template, { t: true, block: '{"type": "cut"}' }), {
    blocks: [{ type: 'cut', mode: 'full' }],
  });
});
