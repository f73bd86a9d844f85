import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrintwireError } from '../errors/index.js';
import { renderTemplate, TemplateError, type TemplateType } from './index.js';

function message(content: string, type: TemplateType = 'html'): string {
  try {
    renderTemplate(content, {}, type);
  } catch (error) {
    assert.ok(error instanceof TemplateError);
    return String(error);
  }
  assert.fail('no error');
}

describe('template errors name the line, the column and what is wrong', () => {
  test('an unclosed section', () => {
    assert.equal(
      message('a\nb\n    {{#items}}\n{{name}}'),
      'TemplateError: line 3, column 5: unclosed section "items"',
    );
  });

  test('a mismatched close', () => {
    assert.equal(
      message('{{#a}}\n  {{#b}}x{{/a}}'),
      'TemplateError: line 2, column 10: mismatched close "{{/a}}": section "b" opened at line 2, column 3 is still open',
    );
  });

  test('a close without an open section', () => {
    assert.equal(
      message('x {{/a}}'),
      'TemplateError: line 1, column 3: unexpected close "{{/a}}": no section is open',
    );
  });

  test('an unclosed tag', () => {
    assert.equal(
      message('ok\n {{name'),
      'TemplateError: line 2, column 2: unclosed tag "{{": no "}}" follows',
    );
    assert.equal(
      message('{{{name}}'),
      'TemplateError: line 1, column 1: unclosed tag "{{{": no "}}}" follows',
    );
  });

  test('an empty tag and an invalid name', () => {
    assert.equal(
      message('{{ }}'),
      'TemplateError: line 1, column 1: empty tag: a name is missing between the braces',
    );
    assert.equal(message('x{{a b}}'), 'TemplateError: line 1, column 2: invalid name "a b" in tag');
    assert.equal(
      message('{{a..b}}'),
      'TemplateError: line 1, column 1: invalid name "a..b" in tag',
    );
  });

  test('partials and delimiter changes are refused', () => {
    assert.match(message('{{> footer}}'), /line 1, column 1: partials/);
    assert.match(message('{{=<% %>=}}'), /line 1, column 1: changing delimiters/);
  });

  test('an unknown type', () => {
    assert.throws(() => renderTemplate('x', {}, 'pdf' as TemplateType), {
      name: 'TemplateError',
      message: 'unknown template type "pdf": expected one of zpl, epl, receipt, html',
    });
  });

  test('a template error is a PrintwireError with code INVALID_JOB, so the job fails with it', () => {
    try {
      renderTemplate('{{#a}}', {}, 'zpl');
      assert.fail('no error');
    } catch (error) {
      assert.ok(error instanceof PrintwireError);
      assert.equal(error.code, 'INVALID_JOB');
      assert.equal(error.status, 400);
      assert.ok(error instanceof TemplateError);
      assert.deepEqual([error.line, error.column, error.reason], [1, 1, 'unclosed section "a"']);
    }
  });
});
