/**
 * The dashboard's catalogs (cloud/dashboard/src/i18n/{en,fr,ht}.json): every key in every
 * language, with the same placeholders, and every key the code asks for present.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { API_VERSION, OPERATIONS, buildOpenApi } from '@printwire/cloud';
import { FIELD_RULES } from '@printwire/shared';
import { JOB_ERROR_CODES } from '@printwire/shared/errors/index';

const SRC = new URL('../cloud/dashboard/src/', import.meta.url).pathname;
const LANGUAGES = ['en', 'fr', 'ht'] as const;

// The roles, plans and scopes the API can answer, from its own OpenAPI document.
const schemas = (
  buildOpenApi(OPERATIONS, { version: API_VERSION, serverUrl: 'http://localhost' }) as unknown as {
    components: {
      schemas: Record<
        string,
        { properties: Record<string, { enum?: string[]; items?: { enum?: string[] } }> }
      >;
    };
  }
).components.schemas;
const ROLES = schemas.Member!.properties.role!.enum!;
const PLANS = schemas.Billing!.properties.plan!.enum!;
const SCOPES = schemas.ApiKey!.properties.scopes!.items!.enum!;
const JOB_STATES = schemas.Job!.properties.state!.enum!;

type Catalog = { [key: string]: string | Catalog };

function flatten(catalog: Catalog, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalog)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const catalogs = Object.fromEntries(
  LANGUAGES.map((l) => [
    l,
    flatten(JSON.parse(readFileSync(join(SRC, 'i18n', `${l}.json`), 'utf8')) as Catalog),
  ]),
) as Record<(typeof LANGUAGES)[number], Map<string, string>>;

/** {{name}} placeholders and <a> tags: a translation keeps them all. */
const markers = (s: string) =>
  [...s.matchAll(/\{\{\s*(\w+)\s*\}\}|<\/?(\w+)>/g)].map((m) => m[0]).sort();

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

test('every key is in English, French and Haitian Creole, none empty, with the same placeholders', () => {
  const en = catalogs.en;
  for (const lang of ['fr', 'ht'] as const) {
    const other = catalogs[lang];
    const missing = [...en.keys()].filter((k) => !other.has(k));
    const extra = [...other.keys()].filter((k) => !en.has(k));
    assert.deepEqual(missing, [], `keys missing in ${lang}.json`);
    assert.deepEqual(extra, [], `keys in ${lang}.json that en.json does not have`);
    for (const [key, text] of en) {
      assert.deepEqual(
        markers(other.get(key)!),
        markers(text),
        `${lang}.json ${key} keeps the placeholders of en.json`,
      );
    }
  }
  for (const lang of LANGUAGES) {
    const empty = [...catalogs[lang]].filter(([, v]) => v.trim() === '').map(([k]) => k);
    assert.deepEqual(empty, [], `empty strings in ${lang}.json`);
  }
});

test('every key the code asks for is in the catalogs', () => {
  const used = new Set<string>();
  for (const file of sources(SRC)) {
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/\bt\(\s*'([\w.]+)'|i18nKey="([\w.]+)"/g))
      used.add(m[1] ?? m[2]!);
  }
  assert.ok(
    used.size > 100,
    `found ${used.size} keys in the code: the scan is looking in the right place`,
  );
  // Keys built from a value: every value the API can answer has its words.
  for (const role of ROLES) used.add(`roles.${role}`).add(`roleHints.${role}`);
  for (const plan of PLANS) used.add(`plans.${plan}`);
  for (const scope of SCOPES) used.add(`scopes.${scope.replace(':', '_')}`);
  for (const lang of LANGUAGES) used.add(`languages.${lang}`);
  // Every rule a field error can name is said in words (ui.tsx fieldError).
  for (const rule of FIELD_RULES) used.add(`errors.rules.${rule}`);
  for (const mode of ['live', 'test']) used.add(`developers.mode.${mode}`);
  for (const unit of ['minutes', 'hours', 'days'])
    used.add(`time.${unit}Ago`).add(`time.${unit}Ahead`);
  // Jobs and printers (issue 19): states, error codes and statuses the API answers, and the
  // refusals of a job action (chosen by code in pages/jobs/job.tsx).
  for (const state of JOB_STATES) used.add(`jobs.state.${state}`);
  const jobPage = readFileSync(join(SRC, 'pages', 'jobs', 'job.tsx'), 'utf8');
  for (const m of jobPage.matchAll(/'(jobs\.actions\.\w+)'/g)) used.add(m[1]!);
  // pages/printers/status.tsx says each of the catalog's job errors in its own words.
  for (const code of [...JOB_ERROR_CODES, 'other']) used.add(`jobs.errors.${code}`);
  for (const s of ['online', 'offline', 'paper_out', 'cover_open', 'error', 'unknown'])
    used.add(`printers.status.${s}`);
  for (const kind of ['receipt', 'label', 'office']) used.add(`printers.kinds.${kind}`);
  for (const cut of ['full', 'partial', 'none']) used.add(`printers.cuts.${cut}`);
  for (const source of ['cloud', 'local']) used.add(`jobs.job.sources.${source}`);
  for (const type of ['receipt', 'text', 'zpl', 'epl']) used.add(`jobs.create.types.${type}`);
  for (const page of ['receipt', 'label', 'page']) used.add(`printers.testPage.${page}`);
  // How a printer is reached (pages/printers/reach.tsx) and the page that adds one that
  // connects by itself (pages/printers/connect.tsx): keys built from the protocol and the step.
  for (const via of ['cloudprnt', 'sdp']) used.add(`printers.reach.${via}`);
  const connect = readFileSync(join(SRC, 'pages', 'printers', 'connect.tsx'), 'utf8');
  const steps = /cloudprnt: \[([^\]]+)\]/.exec(connect)![1]!.match(/\w+/g)!;
  assert.ok(steps.length >= 5, 'the steps are read from connect.tsx');
  for (const protocol of ['cloudprnt', 'sdp']) {
    used.add(`cloudPrinter.protocols.${protocol}`).add(`cloudPrinter.models.${protocol}`);
    used.add(`cloudPrinter.addressLabel.${protocol}`).add(`cloudPrinter.stepsTitle.${protocol}`);
    for (const step of steps) used.add(`cloudPrinter.steps.${protocol}.${step}`);
  }
  const missing = [...used].filter((k) => !catalogs.en.has(k)).sort();
  assert.deepEqual(missing, [], 'keys used in cloud/dashboard/src but not in en.json');
});

test('the Creole catalog is Creole, with the terms of DESIGN.md and the e-mails', () => {
  const ht = catalogs.ht;
  assert.equal(ht.get('login.submit'), 'Konekte');
  assert.equal(ht.get('frame.logout'), 'Dekonekte');
  assert.equal(ht.get('signup.submit'), 'Kreye yon kont');
  assert.equal(ht.get('fields.password'), 'Modpas');
  assert.equal(ht.get('fields.email'), 'Imèl');
  assert.equal(ht.get('nav.members'), 'Manm');
  assert.equal(ht.get('nav.settings'), 'Paramèt');
  assert.equal(ht.get('common.cancel'), 'Anile');
  assert.equal(ht.get('invitation.accept'), 'Aksepte envitasyon an');
  // French words that a Creole page must not carry.
  const french =
    /\b(mot de passe|imprimante|se connecter|organisation|paramètres|annuler|e-mail)\b/i;
  const frenchy = [...ht].filter(([, v]) => french.test(v)).map(([k]) => k);
  assert.deepEqual(frenchy, []);
});
