/**
 * Template rendering: Printwire's compiled receipt template (receipt escaping on) against
 * mustache.js (template pre-parsed) and handlebars (compiled once, HTML escaping on), on the same
 * template and data (`shared/bench/template-receipt.*`: 50 items of 4 values, 10 top-level
 * values). A second line adds our JSON parse and receipt validation, as renderTemplate does.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import Mustache from 'mustache';
import { compileTemplate, renderTemplate } from '../shared/src/template/index.js';
import { report, throughput } from './lib.js';

const inputs = new URL(
  process.env.PRINTWIRE_BENCH_INPUTS ?? '../../shared/bench/',
  import.meta.url,
);
const template = readFileSync(new URL('template-receipt.mustache', inputs), 'utf8');
const data: unknown = JSON.parse(
  readFileSync(new URL('template-receipt.data.json', inputs), 'utf8'),
);

const compiled = compileTemplate(template, 'receipt');
const handlebars = Handlebars.compile(template);
Mustache.parse(template);

// The three must agree on the document they produce before we time them.
const ours = JSON.parse(compiled.renderText(data)) as unknown;
JSON.parse(renderTemplate(template, data, 'receipt', { id: 'bench', version: 1 }));
if (JSON.stringify(ours).length < 1000)
  throw new Error('the benchmark template rendered too little');

// Interleaved short rounds, so that a busy machine slows every contender alike.
const contenders = {
  ours: () => compiled.renderText(data),
  mustache: () => Mustache.render(template, data),
  handlebars: () => handlebars(data),
  full: () => renderTemplate(template, data, 'receipt', { id: 'bench', version: 1 }),
};
const totals = { ours: 0, mustache: 0, handlebars: 0, full: 0 };
const ROUNDS = 8;
for (let round = 0; round < ROUNDS; round++) {
  for (const name of Object.keys(contenders) as Array<keyof typeof contenders>) {
    totals[name] += (
      await throughput(contenders[name], { seconds: 0.25, warmup: 0.05 })
    ).opsPerSecond;
  }
}
const oursText = { opsPerSecond: totals.ours / ROUNDS };
const mustache = { opsPerSecond: totals.mustache / ROUNDS };
const hbs = { opsPerSecond: totals.handlebars / ROUNDS };
const full = { opsPerSecond: totals.full / ROUNDS };

report({
  name: 'template render (compiled, receipt escaping)',
  value: oursText.opsPerSecond,
  unit: 'renders/s',
  baseline: 'handlebars (precompiled)',
  baselineValue: hbs.opsPerSecond,
  higherIsBetter: true,
  target: 1,
});
report({
  name: 'template render (compiled, receipt escaping)',
  value: oursText.opsPerSecond,
  unit: 'renders/s',
  baseline: 'mustache.js (pre-parsed)',
  baselineValue: mustache.opsPerSecond,
  higherIsBetter: true,
  target: 2,
});
report({
  name: 'renderTemplate(receipt) incl. JSON parse + validation',
  value: full.opsPerSecond,
  unit: 'renders/s',
  baseline: 'handlebars (precompiled)',
  baselineValue: hbs.opsPerSecond,
  higherIsBetter: true,
});
