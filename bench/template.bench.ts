/**
 * Template rendering against mustache.js and handlebars, on the same templates and data, in one
 * run. Two templates:
 * - the receipt template of `shared/bench/template-receipt.*` (50 items of 4 values, 10
 *   top-level values), which renders to a receipt document;
 * - the gallery's ZPL shipping label (`label-shipping-4x6`, 4×6 in, 19 values, 2 sections).
 *
 * Each is timed on the public path (`renderTemplate(content, data, type)` called with the text
 * every time, as a new user writes it; mustache.js's `Mustache.render`, which caches parsed
 * templates by their text) and on the compiled path (compiled once, rendered many times). For
 * receipts the public path also checks the document (built from the data and validated in one
 * pass, shared/src/template/receipt-build.ts), so its anchor is handlebars (precompiled) plus
 * `JSON.parse`, the least an integrator would do with the text.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import Mustache from 'mustache';
import {
  getGalleryTemplate,
  validateReceiptDocument,
  compileTemplate,
  renderTemplate,
} from '@printwire/shared';
import { RenderState } from '@printwire/shared/template/compile';
import { positionAt } from '@printwire/shared/template/errors';
import { tokenize } from '@printwire/shared/template/lexer';
import { parse } from '@printwire/shared/template/parser';
import { compileReceiptChecker } from '@printwire/shared/template/receipt-build';
import { report, throughput } from './lib.js';

const inputs = new URL(
  process.env.PRINTWIRE_BENCH_INPUTS ?? '../../shared/bench/',
  import.meta.url,
);
const receipt = readFileSync(new URL('template-receipt.mustache', inputs), 'utf8');
const receiptData: unknown = JSON.parse(
  readFileSync(new URL('template-receipt.data.json', inputs), 'utf8'),
);
const label = getGalleryTemplate('label-shipping-4x6');
if (label === undefined || label.type !== 'zpl') throw new Error('the ZPL label is missing');
const zpl = label.content;
const zplData = label.sampleData;

const compiledReceipt = compileTemplate(receipt, 'receipt');
const compiledZpl = compileTemplate(zpl, 'zpl');
const handlebars = Handlebars.compile(receipt);
// The receipt check on its own, what `render` adds to `renderText`: the document built from the
// data and validated as it is built, in one pass.
const checkReceipt = compileReceiptChecker(
  parse(receipt, tokenize(receipt), 32),
  (offset) => () => positionAt(receipt, offset),
);
if (checkReceipt === undefined) throw new Error('the receipt template is not built from its data');
const checkedReceipt = checkReceipt(new RenderState(receiptData, Infinity));
const validated = validateReceiptDocument(JSON.parse(compiledReceipt.renderText(receiptData)));
if (!validated.ok || JSON.stringify(checkedReceipt) !== JSON.stringify(validated.document)) {
  throw new Error('the receipt checked in one pass is not the validated rendered text');
}

// The contenders must agree on what they produce before we time them.
const ours = JSON.parse(compiledReceipt.renderText(receiptData)) as unknown;
if (JSON.stringify(ours).length < 1000) throw new Error('the receipt rendered too little');
JSON.parse(renderTemplate(receipt, receiptData, 'receipt'));
JSON.parse(handlebars(receiptData));
const zplOut = renderTemplate(zpl, zplData, 'zpl');
if (zplOut !== compiledZpl.render(zplData)) throw new Error('the ZPL paths disagree');
if (Mustache.render(zpl, zplData) !== zplOut) throw new Error('mustache.js renders another label');

// Interleaved short rounds, so that a busy machine slows every contender alike.
const contenders = {
  receiptCompiled: () => compiledReceipt.renderText(receiptData),
  receiptCompiledChecked: () => compiledReceipt.render(receiptData),
  receiptCheck: () => checkReceipt(new RenderState(receiptData, Infinity)),
  receiptPublic: () => renderTemplate(receipt, receiptData, 'receipt'),
  receiptMustache: () => Mustache.render(receipt, receiptData),
  receiptHandlebars: () => handlebars(receiptData),
  receiptHandlebarsParsed: () => JSON.parse(handlebars(receiptData)) as unknown,
  zplCompiled: () => compiledZpl.render(zplData),
  zplPublic: () => renderTemplate(zpl, zplData, 'zpl'),
  zplMustache: () => Mustache.render(zpl, zplData),
};
type Name = keyof typeof contenders;
const names = Object.keys(contenders) as Name[];
const totals = Object.fromEntries(names.map((n) => [n, 0])) as Record<Name, number>;
const ROUNDS = 8;
for (let round = 0; round < ROUNDS; round++) {
  for (const name of names) {
    totals[name] += (
      await throughput(contenders[name], { seconds: 0.2, warmup: 0.05 })
    ).opsPerSecond;
  }
}
const ops = (name: Name) => totals[name] / ROUNDS;
const renders = { unit: 'renders/s', higherIsBetter: true };

report({
  name: 'ZPL label, renderTemplate (public path)',
  value: ops('zplPublic'),
  baseline: 'mustache.js Mustache.render',
  baselineValue: ops('zplMustache'),
  target: 1.5,
  ...renders,
});
report({
  name: 'ZPL label, compiled',
  value: ops('zplCompiled'),
  baseline: 'mustache.js Mustache.render',
  baselineValue: ops('zplMustache'),
  ...renders,
});
report({
  name: 'receipt, renderTemplate (public path: render + document check)',
  value: ops('receiptPublic'),
  baseline: 'handlebars (precompiled) + JSON.parse',
  baselineValue: ops('receiptHandlebarsParsed'),
  target: 1,
  ...renders,
});
report({
  name: 'receipt, compiled render (render + document check)',
  value: ops('receiptCompiledChecked'),
  baseline: 'handlebars (precompiled) + JSON.parse',
  baselineValue: ops('receiptHandlebarsParsed'),
  ...renders,
});
report({
  name: 'receipt, compiled renderText (receipt escaping)',
  value: ops('receiptCompiled'),
  baseline: 'handlebars (precompiled)',
  baselineValue: ops('receiptHandlebars'),
  target: 1,
  ...renders,
});
report({
  name: 'receipt, compiled renderText (receipt escaping)',
  value: ops('receiptCompiled'),
  baseline: 'mustache.js (cached by text)',
  baselineValue: ops('receiptMustache'),
  target: 2,
  ...renders,
});
report({
  name: 'receipt, the check alone (the document built and validated in one pass)',
  value: ops('receiptCheck'),
  baseline: 'the same template, compiled renderText',
  baselineValue: ops('receiptCompiled'),
  target: 1,
  ...renders,
});
