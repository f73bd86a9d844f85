import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Mustache from 'mustache';
import { renderTemplate } from './index.js';

const html = (content: string, data: unknown) => renderTemplate(content, data, 'html');

describe('the syntax table', () => {
  test('{{name}} prints the value escaped for the template type', () => {
    assert.equal(html('Hello {{name}}!', { name: 'Ana & Bo' }), 'Hello Ana &amp; Bo!');
  });

  test('{{customer.name}} prints a nested value', () => {
    assert.equal(html('{{customer.name}}', { customer: { name: 'Jean' } }), 'Jean');
    assert.equal(html('{{items.1.sku}}', { items: [{ sku: 'A' }, { sku: 'B' }] }), 'B');
  });

  test('{{{name}}} and {{& name}} print the value unescaped', () => {
    const data = { b: '<b>bold</b>' };
    assert.equal(html('{{{b}}}', data), '<b>bold</b>');
    assert.equal(html('{{& b}}', data), '<b>bold</b>');
    assert.equal(html('{{{ b }}}', data), '<b>bold</b>');
  });

  test('a section repeats for each element of a list', () => {
    assert.equal(
      html('{{#items}}[{{name}}]{{/items}}', { items: [{ name: 'a' }, { name: 'b' }] }),
      '[a][b]',
    );
  });

  test('a section over an object makes it the context once', () => {
    assert.equal(
      html('{{#shop}}{{name}}, {{city}}{{/shop}}', { shop: { name: 'Fournil', city: 'Paris' } }),
      'Fournil, Paris',
    );
  });

  test('a section over another value shows when true, non-empty or non-zero', () => {
    const t = '{{#v}}shown{{/v}}';
    for (const v of [true, 'x', 1, -2.5, '0', 'false'])
      assert.equal(html(t, { v }), 'shown', String(v));
    for (const v of [false, '', 0, null, undefined]) assert.equal(html(t, { v }), '', String(v));
  });

  test('an inverted section shows when the value is missing, false, empty or zero', () => {
    const t = '{{^v}}none{{/v}}';
    for (const v of [false, '', 0, null, [], undefined])
      assert.equal(html(t, { v }), 'none', String(v));
    for (const v of [true, 'x', 3, [1], {}]) assert.equal(html(t, { v }), '', JSON.stringify(v));
    assert.equal(html(t, {}), 'none');
  });

  test('{{.}} is the current list element', () => {
    assert.equal(html('{{#tags}}[{{.}}]{{/tags}}', { tags: ['a', 'b&c'] }), '[a][b&amp;c]');
    assert.equal(html('{{#n}}{{.}}{{/n}}', { n: 42 }), '42');
    const lists = {
      list: [
        [1, 2, 3],
        ['a', 'b', 'c'],
      ],
    };
    assert.equal(html('{{#list}}({{#.}}{{.}}{{/.}}){{/list}}', lists), '(123)(abc)');
  });

  test('{{@index}} counts from 0 and @first and @last mark the ends of a list', () => {
    const t =
      '{{#items}}{{#@first}}[{{/@first}}{{@index}}:{{.}}{{^@last}}, {{/@last}}{{#@last}}]{{/@last}}{{/items}}';
    assert.equal(html(t, { items: ['a', 'b', 'c'] }), '[0:a, 1:b, 2:c]');
    assert.equal(
      html('{{^@first}}x{{/@first}}{{#items}}{{^@first}}+{{/@first}}{{.}}{{/items}}', {
        items: [1, 2],
      }),
      'x1+2',
    );
  });

  test('list positions refer to the innermost list, also inside an object section', () => {
    const data = {
      rows: [
        { cells: ['a', 'b'], meta: { n: 1 } },
        { cells: ['c'], meta: { n: 2 } },
      ],
    };
    const t =
      '{{#rows}}{{@index}}({{#cells}}{{@index}}{{/cells}}){{#meta}}{{@index}}{{/meta}};{{/rows}}';
    assert.equal(html(t, data), '0(01)0;1(0)1;');
  });

  test('names objects inherit (constructor, toString, __proto__) are not data and print nothing', () => {
    const t = '[{{constructor}}][{{toString}}][{{__proto__}}][{{a.constructor}}][{{l.length}}]';
    assert.equal(html(t, { a: {}, l: [1, 2] }), '[][][][][2]');
    assert.equal(html('{{#constructor}}x{{/constructor}}', {}), '');
  });

  test('{{! note }} is a comment that prints nothing', () => {
    assert.equal(html('a{{! a note with } and {{ inside }}b', {}), 'ab');
  });

  test('names are looked up through the enclosing contexts', () => {
    const data = { currency: 'EUR', items: [{ price: 1 }, { price: 2, currency: 'HTG' }] };
    assert.equal(html('{{#items}}{{price}} {{currency}};{{/items}}', data), '1 EUR;2 HTG;');
  });
});

describe('where the mustache spec and mustache.js differ, we follow the spec', () => {
  test('a dotted name resolves against the first part found and does not fall back further', () => {
    const data = { a: { b: {} }, b: { c: 'ERROR' } };
    assert.equal(html('[{{#a}}{{b.c}}{{/a}}]', data), '[]');
  });

  test('a line with two section tags is not standalone and keeps its whitespace', () => {
    assert.equal(html('a\n {{#t}}{{#t}}\nb{{/t}}{{/t}}', { t: true }), 'a\n \nb');
  });
});

describe('behaviour shared with mustache.js', () => {
  // Data without characters mustache.js and we escape differently (it also escapes / and =).
  const data = {
    name: 'Chris',
    company: 'GitHub',
    missing: null,
    list: [{ n: 1 }, { n: 2 }, { n: 3 }],
    empty: [],
    yes: true,
    no: false,
    person: { first: 'Ana', last: 'Pierre', address: { city: 'Jacmel' } },
    outer: 'out',
  };
  const cases: Record<string, string> = {
    interpolation: 'Hello, {{name}} from {{company}}! {{missing}}.',
    'dotted names': '{{person.first}} {{person.address.city}} {{person.nope.city}}',
    'dotted names do not fall back past a found first part':
      '{{#person}}{{address.name}}{{/person}}',
    'sections over lists': '{{#list}}<{{n}}>{{/list}}{{#empty}}never{{/empty}}',
    'sections over booleans': '{{#yes}}Y{{/yes}}{{#no}}N{{/no}}',
    'nested contexts':
      '{{#person}}{{first}} {{outer}} {{#address}}{{city}} {{last}}{{/address}}{{/person}}',
    'inverted sections':
      '{{^empty}}E{{/empty}}{{^no}}N{{/no}}{{^yes}}Y{{/yes}}{{^nothing}}0{{/nothing}}',
    comments: 'a {{! comment }}b{{!\nmulti\nline}}c',
    'standalone section lines': 'begin\n{{#list}}\n  item {{n}}\n{{/list}}\nend\n',
    'indented standalone lines': 'begin\n   {{#yes}}\n\tyes\n   {{/yes}}\nend',
    'standalone comment lines': 'a\n  {{! note }}\nb\n',
    'standalone lines with CRLF': 'a\r\n{{#yes}}\r\nb\r\n{{/yes}}\r\nc',
    'standalone tag at the start and the end without newline': '{{#yes}}\nx\n{{/yes}}',
    'non-standalone tags keep their line': ' {{#yes}}x{{/yes}} \n{{name}} {{#no}}\n{{/no}}z',
    'inverted standalone lines': 'a\n{{^no}}\nb\n{{/no}}\nc\n',
    'whitespace inside tags': '{{ name }} {{# yes }}y{{/ yes }}',
  };
  for (const [title, template] of Object.entries(cases)) {
    test(`${title} render as in mustache.js`, () => {
      assert.equal(html(template, data), Mustache.render(template, data));
    });
  }
});
