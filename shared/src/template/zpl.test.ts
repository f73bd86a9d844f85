import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTemplate, zplCommands } from './index.js';

const zpl = (content: string, data: unknown) => renderTemplate(content, data, 'zpl');

describe('the ZPL field scanner', () => {
  test('a value in ^FV field data is escaped like ^FD data', () => {
    assert.equal(zpl('^XA^FH^FV{{v}}^FS^XZ', { v: '^' }), '^XA^FH^FV_5E^FS^XZ');
  });

  test('^FH applies to its own field only: after ^FS values are removed, not hex-coded', () => {
    const out = zpl('^XA^FH^FD{{v}}^FS^FO0,0^FD{{v}}^FS^XZ', { v: 'a^b' });
    assert.equal(out, '^XA^FH^FDa_5Eb^FS^FO0,0^FDab^FS^XZ');
  });

  test('^FH with any indicator hex-codes that indicator and leaves the default one alone', () => {
    assert.equal(zpl('^XA^FH#^FD{{v}}^FS^XZ', { v: '#_^' }), '^XA^FH#^FD#23_#5E^FS^XZ');
  });

  test('^FH followed directly by ^FD uses the default indicator _', () => {
    assert.equal(zpl('^XA^FH\n^FD{{v}}^FS^XZ', { v: '_' }), '^XA^FH\n^FD_5F^FS^XZ');
  });

  test('a template that changes the caret with ^CC is followed, and the new caret is escaped too', () => {
    const out = zpl('^XA^CC!!FO0,0!FH!FD{{v}}!FS!XZ', { v: '!^' });
    assert.equal(out, '^XA^CC!!FO0,0!FH!FD_21_5E!FS!XZ');
    assert.deepEqual(zplCommands(out), ['^XA', '^CC', '^FO', '^FH', '^FD', '^FS', '^XZ']);
  });

  test('a template that changes the tilde with ~CT is followed', () => {
    const out = zpl('^XA~CT+^FO0,0^FD{{v}}^FS^XZ', { v: '+JR~x' });
    assert.equal(out, '^XA~CT+^FO0,0^FDJRx^FS^XZ');
  });

  test('a value where a command name belongs is refused at compile time', () => {
    assert.throws(() => zpl('^XA\n^F{{cmd}}hello^FS', {}), {
      name: 'TemplateError',
      message:
        'line 2, column 3: a value cannot be part of a ZPL command name; write the command in the template',
    });
    assert.throws(
      () => zpl('^XA^FH{{i}}^FDx^FS', {}),
      /line 1, column 7: a value cannot be the \^FH indicator/,
    );
    assert.throws(
      () => zpl('^XA^CC{{c}}', {}),
      /line 1, column 7: a value cannot set the ZPL caret/,
    );
  });

  test('a section that opens a field without closing it is refused', () => {
    assert.throws(() => zpl('^XA\n{{#a}}^FO0,0^FD{{/a}}{{v}}^FS^XZ', {}), {
      name: 'TemplateError',
      message:
        'line 2, column 1: section "a" must leave ZPL as it found it: put ^FD…^FS, ^FH and ^CC/^CT wholly inside or wholly outside the section',
    });
  });

  test('sections wholly inside or around fields are fine', () => {
    const t = '^XA\n{{#items}}\n^FO0,{{y}}^FH^FD{{#bold}}*{{/bold}}{{name}}^FS\n{{/items}}\n^XZ';
    const out = zpl(t, {
      items: [
        { y: 10, name: 'a^', bold: true },
        { y: 40, name: 'b' },
      ],
    });
    assert.equal(out, '^XA\n^FO0,10^FH^FD*a_5E^FS\n^FO0,40^FH^FDb^FS\n^XZ');
  });

  test('zplCommands lists the commands of a format, ignoring field data', () => {
    assert.deepEqual(zplCommands('^XA^FO1,2^A0N,30^FDa,b c^FS~JR^XZ'), [
      '^XA',
      '^FO',
      '^A0',
      '^FD',
      '^FS',
      '~JR',
      '^XZ',
    ]);
  });
});
