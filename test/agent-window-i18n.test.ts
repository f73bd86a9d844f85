/**
 * The agent window's catalogs (agent/window/src/i18n/{en,fr,ht}.json): every key in every
 * language, with the same placeholders, and every key the code asks for present.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOG } from '@printwire/shared/errors/index';
import { PRINTER_STATUSES } from '@printwire/shared/protocol/index';

const SRC = new URL('../agent/window/src/', import.meta.url).pathname;
const LANGUAGES = ['en', 'fr', 'ht'] as const;

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

const markers = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[0]).sort();

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** A key, or its plural forms (`key_one`, `key_other`). */
const has = (catalog: Map<string, string>, key: string) =>
  catalog.has(key) || (catalog.has(`${key}_one`) && catalog.has(`${key}_other`));

test('every window key is in English, French and Haitian Creole, none empty, same placeholders', () => {
  const en = catalogs.en;
  for (const lang of ['fr', 'ht'] as const) {
    const other = catalogs[lang];
    assert.deepEqual(
      [...en.keys()].filter((k) => !other.has(k)),
      [],
      `keys missing in ${lang}.json`,
    );
    assert.deepEqual(
      [...other.keys()].filter((k) => !en.has(k)),
      [],
      `keys in ${lang}.json that en.json does not have`,
    );
    for (const [key, text] of en) {
      assert.deepEqual(markers(other.get(key)!), markers(text), `${lang}.json ${key} placeholders`);
    }
  }
  for (const lang of LANGUAGES) {
    const empty = [...catalogs[lang]].filter(([, v]) => v.trim() === '').map(([k]) => k);
    assert.deepEqual(empty, [], `empty strings in ${lang}.json`);
  }
});

test('every key the window asks for is in the catalogs', () => {
  const used = new Set<string>();
  for (const file of sources(SRC)) {
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/\bt\(\s*'([\w.-]+)'/g)) used.add(m[1]!);
  }
  assert.ok(used.size > 60, `found ${used.size} keys: the scan looks in the right place`);
  // Keys built from a value: every value the agent can answer has its words.
  for (const s of PRINTER_STATUSES) used.add(`printerStatus.${s}`);
  for (const s of ['offline', 'paper_out', 'cover_open', 'error']) used.add(`printerAdvice.${s}`);
  for (const s of ['connected', 'paused', 'offline', 'not-activated']) used.add(`state.${s}`);
  for (const s of ['queued', 'printing', 'printed', 'failed', 'cancelled'])
    used.add(`jobState.${s}`);
  for (const s of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) used.add(`logLevel.${s}`);
  for (const unit of ['minutes', 'hours', 'days'])
    used.add(`time.${unit}Ago`).add(`time.${unit}Ahead`);
  const missing = [...used].filter((k) => !has(catalogs.en, k)).sort();
  assert.deepEqual(missing, [], 'keys used in agent/window/src but not in en.json');
  // Every error a job can end with (the catalog from EXPIRED on) has plain words.
  const codes = Object.keys(ERROR_CATALOG);
  for (const code of codes.slice(codes.indexOf('EXPIRED'))) {
    assert.ok(catalogs.en.has(`errors.codes.${code}`), `errors.codes.${code} in en.json`);
  }
});

test('the window speaks Creole with the terms of DESIGN.md', () => {
  const ht = catalogs.ht;
  assert.equal(ht.get('nav.printers'), 'Enprimant');
  assert.equal(ht.get('nav.settings'), 'Paramèt');
  assert.equal(ht.get('queue.cancel'), 'Anile');
  assert.equal(ht.get('printers.paper'), 'Papye');
  const french =
    /\b(mot de passe|imprimante|se connecter|organisation|paramètres|annuler|papier)\b/i;
  assert.deepEqual(
    [...ht].filter(([, v]) => french.test(v)).map(([k]) => k),
    [],
  );
});
