import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTemplate } from './index.js';

const epl = (content: string, data: unknown) => renderTemplate(content, data, 'epl');

describe('the EPL quote scanner', () => {
  test('a quoted string ends at the line break, so the next line starts outside quotes', () => {
    assert.equal(
      epl('A1,1,0,1,1,1,N,"{{a}}\nP{{n}}\n', { a: '"', n: '"2' }),
      'A1,1,0,1,1,1,N,"\\"\nP2\n',
    );
  });

  test('an escaped quote in the template keeps the value inside the string', () => {
    assert.equal(
      epl('A1,1,0,1,1,1,N,"say \\"{{a}}\\""\n', { a: '"x"' }),
      'A1,1,0,1,1,1,N,"say \\"\\"x\\"\\""\n',
    );
  });

  test('a value right after a backslash in a string is refused', () => {
    assert.throws(() => epl('A1,1,0,1,1,1,N,"\\{{a}}"', {}), {
      name: 'TemplateError',
      message: 'line 1, column 18: a value cannot follow a backslash in an EPL string',
    });
  });

  test('a section that opens a string without closing it is refused', () => {
    assert.throws(() => epl('A1,1,0,1,1,1,N,{{#a}}"{{/a}}{{v}}"', {}), {
      message: `line 1, column 16: section "a" must start and end on the same side of an EPL string's quotes`,
    });
  });

  test('raw values are inserted as they are', () => {
    assert.equal(epl('{{{cmd}}}\nP1\n', { cmd: 'GG10,10,"LOGO"' }), 'GG10,10,"LOGO"\nP1\n');
  });
});
