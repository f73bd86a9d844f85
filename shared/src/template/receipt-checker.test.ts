import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gallery } from '../gallery/index.js';
import { validateReceiptDocument } from '../receipt/schema.js';
import { compileNodes, RenderState } from './compile.js';
import { positionAt, TemplateError } from './errors.js';
import { hostileLike, seededRandom } from './hostile.js';
import { renderReceiptDocument } from './index.js';
import { tokenize } from './lexer.js';
import { parse } from './parser.js';
import { compileReceiptChecker } from './receipt-build.js';

/**
 * Renders `data` both ways: the text, parsed and validated as before; and the document built
 * and validated in one pass. Where the one pass gives a document, the text must validate to the
 * very same document (key order included). Returns whether the one pass gave a document.
 */
function agree(template: string, data: unknown, label = template): boolean {
  const nodes = parse(template, tokenize(template), 32);
  const text = compileNodes(template, nodes, 'receipt'); // refuses what compileTemplate refuses
  const check = compileReceiptChecker(nodes, (offset) => () => positionAt(template, offset));
  const st = new RenderState(data, Infinity);
  text(st);
  const checked = check?.(new RenderState(data, Infinity));
  if (checked === undefined) return false;
  const expected = validateReceiptDocument(JSON.parse(st.out));
  assert.ok(expected.ok, `${label}: checked what does not validate: ${st.out.slice(0, 300)}`);
  assert.deepStrictEqual(checked, expected.document, label);
  assert.equal(JSON.stringify(checked), JSON.stringify(expected.document), label);
  return true;
}

const doc = (blocks: string) => `{"width": "58mm", "blocks": [${blocks}]}`;

describe('a receipt checked as it is built is the document the rendered text validates to', () => {
  test('for every gallery receipt, with its sample data and with hostile data', () => {
    const receipts = gallery.filter((g) => g.type === 'receipt');
    assert.ok(receipts.length >= 5);
    for (const g of receipts) {
      assert.equal(agree(g.content, g.sampleData, g.id), true, `${g.id} is checked in one pass`);
      for (let seed = 1; seed <= 30; seed++) {
        agree(g.content, hostileLike(g.sampleData, seededRandom(seed)), `${g.id} seed ${seed}`);
        const strings = hostileLike(g.sampleData, seededRandom(seed), { stringsOnly: true });
        agree(g.content, strings, `${g.id} seed ${seed} (strings)`);
      }
    }
  });

  test('for every block type, its fields written in the template or filled from the data', () => {
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==';
    const cases: Array<[string, unknown]> = [
      ['{"type": "text", "value": "{{v}}"}', { v: 'Kafe' }],
      ['{"font": "b", "value": "a {{v}} b", "type": "text", "size": {{n}}, "bold": true}', {}],
      ['{"type": "text", "value": "{{v}}", "size": {{n}}, "align": "{{a}}"}', {}],
      ['{"type": "line"}', {}],
      ['{"type": "line", "style": "{{s}}"}', { s: 'dashed' }],
      ['{"type": "pair", "left": "{{v}}", "right": "{{n}}", "bold": {{t}}}', {}],
      [
        '{"type": "table", "columns": [{"width": 0.5}, {"width": 0.5}], "rows": [["a", "{{v}}"]]}',
        {},
      ],
      ['{"type": "qr", "value": "{{v}}", "size": {{n}}, "errorLevel": "H"}', {}],
      ['{"type": "barcode", "format": "CODE128", "value": "{{v}}", "hri": "none"}', {}],
      ['{"type": "barcode", "format": "EAN13", "value": "400638133393"}', {}],
      [`{"type": "image", "src": "${png}", "width": {{n}}}`, {}],
      ['{"type": "image", "src": "https://example.com/{{v}}.png"}', {}],
      ['{"type": "feed", "lines": {{n}}}', {}],
      ['{"type": "cut", "mode": "partial"}', {}],
      ['{"type": "drawer", "pin": 5}', {}],
      ['{"type": "raw", "data": "G0A="}', {}],
    ];
    const values = { v: 'Kafe', n: 3, t: true, a: 'center', s: 'double' };
    for (const [block, data] of cases) {
      const template = doc(`${block}, {"type": "cut"}`);
      assert.equal(agree(template, { ...values, ...(data as object) }), true, template);
    }
  });

  test('for values and fields that break a block: the text is validated instead', () => {
    const cases: Array<[string, unknown]> = [
      ['{"type": "text", "value": "{{v}}", "size": {{n}}}', { v: 'x', n: 9 }],
      ['{"type": "text", "value": "{{v}}", "size": {{n}}}', { v: 'x', n: '2' }],
      ['{"type": "text", "value": "{{v}}"}', { v: 'x'.repeat(5000) }],
      ['{"type": "text", "value": {{n}}}', { n: 1 }],
      ['{"type": "text", "value": "x", "colour": "red"}', {}],
      ['{"type": "text", "value": "x", "value": "y"}', {}],
      ['{"type": "text", "type": "line"}', {}],
      ['{"type": "poem", "value": "x"}', {}],
      ['{"type": "{{t}}", "value": "x"}', { t: 'text' }],
      ['{"type": "pair", "left": "{{v}}"}', { v: 'x' }],
      ['{"type": "qr", "value": "{{v}}"}', { v: '' }],
      ['{"type": "barcode", "format": "EAN13", "value": "{{v}}"}', { v: '4006381333932' }],
      ['{"type": "image", "src": "{{v}}"}', { v: 'not an image' }],
      ['{"type": "feed", "lines": {{n}}}', { n: 0 }],
      ['{"type": "drawer", "pin": {{n}}}', { n: 3 }],
      ['{"type": "raw", "data": "{{{v}}}"}', { v: 'G0A' }],
      ['{"type": "text", "value": "{{v}}", "size": {{n}}}', { v: 'x' }], // `"size": ,`
    ];
    for (const [block, data] of cases) {
      agree(doc(block), data, `${block} ${JSON.stringify(data)}`);
      agree(doc(`{"type": "cut"}, ${block}`), data, `after a block: ${block}`);
    }
    // A block where no block belongs: the document is refused, as the text's is.
    for (const template of [
      '{"type": "cut"}',
      '{"blocks": [], "extra": {"type": "cut"}}',
      '{"blocks": [{"type": "table", "columns": [{"type": "cut"}], "rows": []}]}',
      '{"blocks": [{"type": "table", "columns": [{"width": 1}], "rows": [[{"type": "cut"}]]}]}',
    ]) {
      assert.equal(agree(template, {}), false, template);
    }
  });

  test('for documents whose blocks come from sections and raw values as well', () => {
    const cases: Array<[string, unknown]> = [
      [
        doc('{{#xs}}{"type": "text", "value": "{{.}}"},{{/xs}} {"type": "cut"}'),
        { xs: ['a', 'b\u001b', 'c\td'] },
      ],
      [
        doc('{{#xs}}{"type": "text", "value": "{{.}}"},{{/xs}} {{{more}}}'),
        { xs: ['a'], more: '{"type": "feed"}' },
      ],
      [doc('{{{more}}}, {"type": "cut"}'), { more: '{"type": "pair", "left": "a", "right": "b"}' }],
      [doc('{{{more}}}, {"type": "cut"}'), { more: '{"type": "text", "value": "x", "size": 9}' }],
      [
        doc(
          '{"type": "table", "columns": [{"width": 1}], "rows": [{{#rows}}["{{.}}"],{{/rows}} []]}',
        ),
        { rows: ['a', 'b'] },
      ],
      [
        '{"blocks": [{{#xs}}{"type": "cut"}{{^@last}},{{/@last}}{{/xs}}], "codepage": "cp437"}',
        { xs: [1, 2] },
      ],
      [
        '{"blocks": [{{#xs}}{"type": "cut"}{{^@last}},{{/@last}}{{/xs}}], "width": "57mm"}',
        { xs: [1] },
      ],
      [
        '{"blocks": [{{#xs}}{"type": "cut"},{{/xs}}{"type": "cut"}]}',
        { xs: new Array(2000).fill(1) },
      ],
    ];
    for (const [template, data] of cases) agree(template, data, template.slice(0, 120));
    assert.equal(agree(cases[0]![0], cases[0]![1]), true);
    assert.equal(agree(cases[2]![0], cases[2]![1]), true);
  });

  test('for random blocks of literal and data fields', () => {
    const random = seededRandom(12);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const FIELDS: Record<string, string[]> = {
      text: ['value', 'align', 'bold', 'underline', 'size', 'invert', 'font'],
      line: ['style'],
      pair: ['left', 'right', 'bold'],
      qr: ['value', 'size', 'errorLevel', 'align'],
      barcode: ['format', 'value', 'height', 'width', 'hri', 'align'],
      feed: ['lines'],
      cut: ['mode'],
      drawer: ['pin'],
    };
    const LITERALS = ['"x"', '""', '"left"', '"b"', '"M"', '"CODE128"', '1', '2', '5', '9', 'true'];
    const TAGS = [
      '{{s}}',
      '"{{s}}"',
      '"a {{s}}"',
      '{{n}}',
      '"{{n}}"',
      '{{b}}',
      '{{o}}',
      '"{{{s}}}"',
    ];
    const data = [
      { s: 'x', n: 2, b: true, o: 'x' },
      { s: 'left', n: 5, b: false, o: [1] },
      { s: '12\u0007', n: 80, b: 'true', o: { x: 1 } },
      { s: 'Café "b"', n: -0, b: null, o: 'center' },
    ];
    let checked = 0;
    for (let i = 0; i < 2000; i++) {
      const type = pick(Object.keys(FIELDS));
      const fields = FIELDS[type]!.filter(() => random() < 0.5);
      if (random() < 0.05) fields.push(pick(['extra', 'type', 'value']));
      const body = fields.map((f) => `"${f}": ${random() < 0.5 ? pick(LITERALS) : pick(TAGS)}`);
      const block = `{${['"type": "' + type + '"', ...body].join(', ')}}`;
      if (agree(doc(`${block}, {"type": "cut"}`), pick(data), `case ${i}: ${block}`)) checked++;
    }
    assert.ok(checked > 300 && checked < 1900, `${checked} of 2000 were checked in one pass`);
  });
});

test('renderReceiptDocument still names the line and column of a value that breaks a block', () => {
  const template = '{"blocks": [\n  {"type": "text", "value": "x", "size": {{n}}}\n]}';
  assert.throws(
    () => renderReceiptDocument(template, { n: 9 }),
    (error: unknown) =>
      error instanceof TemplateError &&
      /blocks\[0\]\.size: must be 1-8/.test(error.message) &&
      error.line === 2 &&
      error.column === 42,
  );
});

const TEXT_DEFAULTS = {
  type: 'text',
  value: '',
  bold: false,
  underline: false,
  size: 1,
  invert: false,
  font: 'a',
};

test('a getter in the data that renders the same template again does not mix the two documents', () => {
  const template = doc(
    '{"type": "pair", "left": "{{a}}", "right": "{{b}}"}, {"type": "text", "value": "{{b}}"}',
  );
  const inner = { a: 'inner a', b: 'inner b' };
  const nested: unknown[] = [];
  const data = {
    a: 'outer a',
    get b() {
      nested.push(renderReceiptDocument(template, inner).blocks);
      return 'outer b';
    },
  };
  assert.deepStrictEqual(renderReceiptDocument(template, data).blocks, [
    { type: 'pair', left: 'outer a', right: 'outer b', bold: false },
    { ...TEXT_DEFAULTS, value: 'outer b' },
  ]);
  assert.ok(nested.length >= 2);
  for (const blocks of nested) {
    assert.deepStrictEqual(blocks, [
      { type: 'pair', left: 'inner a', right: 'inner b', bold: false },
      { ...TEXT_DEFAULTS, value: 'inner b' },
    ]);
  }
});
