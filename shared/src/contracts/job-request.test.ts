import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkJobRequest, printOptions } from './job-request.js';
import { urlProblem } from './url.js';

const dev = { production: false };
const prod = { production: true };

function issuesOf(body: unknown, options = dev) {
  const result = checkJobRequest(body, options);
  assert.equal(result.ok, false, 'the request is refused');
  return result.ok ? [] : result.issues;
}

test('a direct job is checked and its content given as text', () => {
  const result = checkJobRequest({ type: 'raw', data: 'G0A=\n' }, dev);
  assert.ok(result.ok);
  assert.deepEqual(result.value.direct, { type: 'raw', encoding: 'base64', text: 'G0A=' });
  const receipt = checkJobRequest({ type: 'receipt', data: { blocks: [{ type: 'cut' }] } }, dev);
  assert.ok(receipt.ok);
  assert.equal(receipt.value.direct?.text, '{"blocks":[{"type":"cut"}]}');
  assert.ok(receipt.value.direct?.document);
});

test('every problem is reported at once, each naming its field', () => {
  const issues = issuesOf({
    type: 'text',
    data: '',
    printer: { deviceId: 'dev_1' },
    printerId: 'prn_1',
    alias: 'front',
  });
  assert.deepEqual(
    issues.map((i) => i.message),
    [
      'printer: give either printer or printerId, not both',
      'alias: needs deviceId (or use printer: { alias })',
      'printer: name the printer by id, alias or name',
      'data: must not be empty',
    ],
  );
});

test('a shape error names the field and the rule it broke', () => {
  const issues = issuesOf({
    type: 'text',
    data: 'x',
    options: { codepage: 'klingon', copies: 11 },
  });
  assert.deepEqual(
    issues.map((i) => [i.path, i.rule]),
    [
      ['options.copies', 'max'],
      ['options.codepage', 'one_of'],
    ],
  );
  assert.match(issues[1]!.message, /^options\.codepage: .*cp437/i);
});

test('a codepage Printwire knows is accepted', () => {
  assert.ok(checkJobRequest({ type: 'text', data: 'x', options: { codepage: 'CP858' } }, dev).ok);
});

test('a receipt’s problems are re-rooted under data', () => {
  const issues = issuesOf({ type: 'receipt', data: { blocks: [{ type: 'nope' }] } });
  assert.ok(issues.length > 0);
  for (const i of issues) assert.match(i.path, /^data(\.|$)/);
  assert.deepEqual(issuesOf({ type: 'receipt', data: 'not a document' })[0]?.path, 'data');
});

test('a template job takes neither type nor encoding; a direct job needs its type', () => {
  assert.ok(checkJobRequest({ templateId: 'tpl_1', data: {} }, dev).ok);
  assert.deepEqual(
    issuesOf({ templateId: 'tpl_1', type: 'text', encoding: 'utf8', data: {} }).map((i) => i.path),
    ['type', 'encoding'],
  );
  assert.match(issuesOf({ data: 'x' })[0]!.message, /^type: required \(one of receipt,/);
  assert.equal(
    issuesOf({ type: 'pdf', encoding: 'utf8', data: 'x' })[0]!.message,
    'encoding: a pdf job takes base64 or url',
  );
});

test('a URL job keeps the URL rule: https, http too outside production', () => {
  assert.ok(checkJobRequest({ type: 'pdf', encoding: 'url', data: 'http://a.test/x.pdf' }, dev).ok);
  assert.deepEqual(issuesOf({ type: 'pdf', encoding: 'url', data: 'http://a.test/x' }, prod), [
    { path: 'data', message: 'data: must be an https URL' },
  ]);
  assert.equal(urlProblem('ftp://a.test/x', false), 'must be an http or https URL');
  assert.equal(urlProblem('a.test/x', true), 'must be an absolute URL');
  assert.equal(
    urlProblem(`https://a.test/${'x'.repeat(2048)}`, true),
    'must be at most 2048 characters',
  );
});

test('the printer gets copies, cut, drawer and codepage; the job keeps the rest', () => {
  assert.deepEqual(
    printOptions({ copies: 2, cut: 'none', paper: '58mm', maxAttempts: 3, codepage: 'CP437' }),
    { copies: 2, cut: 'none', codepage: 'CP437' },
  );
  assert.deepEqual(printOptions(undefined), {});
});

test('printerGroupId is a target of its own: with any other target it is refused, naming it', () => {
  assert.ok(checkJobRequest({ printerGroupId: 'grp_1', type: 'text', data: 'x' }, dev).ok);
  assert.ok(checkJobRequest({ printerGroupId: 'grp_1', templateId: 'tpl_1', data: {} }, dev).ok);
  for (const other of [
    { printerId: 'prn_1' },
    { printer: 'Kitchen' },
    { deviceId: 'dev_1' },
    { deviceId: 'dev_1', alias: 'bar' },
  ]) {
    const issues = issuesOf({ printerGroupId: 'grp_1', type: 'text', data: 'x', ...other });
    assert.ok(
      issues.some((i) => i.path === 'printerGroupId' && /not both/.test(i.message)),
      JSON.stringify(issues),
    );
  }
  assert.deepEqual(
    issuesOf({ printerGroupId: '', type: 'text', data: 'x' }).map((i) => i.path),
    ['printerGroupId'],
  );
  const long = issuesOf({ printerGroupId: 'g'.repeat(101), type: 'text', data: 'x' });
  assert.deepEqual(
    long.map((i) => i.path),
    ['printerGroupId'],
  );
  assert.ok(checkJobRequest({ printerGroupId: 'g'.repeat(100), type: 'text', data: 'x' }, dev).ok);
});
