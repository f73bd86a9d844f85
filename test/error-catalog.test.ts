/**
 * The one error catalog (shared/src/errors) against what sends its codes and what says them:
 * every code is sent by some side, every code a side sends is in the sources of that side, and
 * the apps' catalogs (read as JSON files by path) have words, in en, fr and ht, for exactly the
 * codes that reach them: no code without words, no words for a code nothing sends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  API_ERROR_CODES,
  ERROR_CATALOG,
  JOB_ERROR_CODES,
  LOCAL_ERROR_CODES,
  SDK_ERROR_CODES,
  WINDOW_ERROR_CODES,
} from '@printwire/shared/errors/index';

const ROOT = new URL('../', import.meta.url).pathname;
const LANGUAGES = ['en', 'fr', 'ht'] as const;

type Catalog = { [key: string]: string | Catalog };
const catalog = (path: string): Catalog =>
  JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Catalog;

/** The words of `section` (`errors.codes`) in one language: code → text. */
function section(path: string, keys: string[]): Record<string, string> {
  let node: Catalog | string | undefined = catalog(path);
  for (const key of keys) node = typeof node === 'object' ? node[key] : undefined;
  assert.equal(typeof node, 'object', `${path} has ${keys.join('.')}`);
  return node as Record<string, string>;
}

const sorted = (codes: Iterable<string>) => [...new Set(codes)].sort();

/** Checks one app's words for one set of codes in every language. */
function assertWords(app: string, keys: string[], codes: readonly string[], extra: string[] = []) {
  for (const lang of LANGUAGES) {
    const path = `${app}/src/i18n/${lang}.json`;
    const words = section(path, keys);
    const said = Object.keys(words).filter((k) => !extra.includes(k));
    const missing = codes.filter((c) => !said.includes(c));
    const unsent = said.filter((c) => !codes.includes(c));
    assert.deepEqual(sorted(missing), [], `${path} ${keys.join('.')}: codes sent without words`);
    assert.deepEqual(
      sorted(unsent),
      [],
      `${path} ${keys.join('.')}: words for codes nothing sends`,
    );
    for (const [code, text] of Object.entries(words)) {
      assert.ok(text.trim().length > 0, `${path} ${keys.join('.')}.${code} is not empty`);
    }
  }
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      return name === 'node_modules' || name === 'testing' ? [] : sources(path);
    }
    return /\.tsx?$/.test(name) && !/\.(test|d)\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The codes written as a string literal in the sources under `dirs` (the catalog left out). */
function codesIn(...dirs: string[]): Set<string> {
  const found = new Set<string>();
  for (const file of dirs.flatMap((d) => sources(join(ROOT, d)))) {
    if (file.endsWith(join('shared', 'src', 'errors', 'index.ts'))) continue;
    if (file.endsWith(join('shared', 'src', 'contracts', 'local-api.ts'))) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/['"`]([A-Z][A-Z_]{3,})['"`]/g)) found.add(m[1]!);
  }
  return found;
}

test('every code of the catalog is sent by some side, and each side’s list is in the catalog', () => {
  const sent = new Set<string>([
    ...API_ERROR_CODES,
    ...JOB_ERROR_CODES,
    ...WINDOW_ERROR_CODES,
    ...LOCAL_ERROR_CODES,
    ...SDK_ERROR_CODES,
  ]);
  const unsent = Object.keys(ERROR_CATALOG).filter((c) => !sent.has(c));
  assert.deepEqual(unsent, [], 'catalog codes that no list says are sent');
  const unknown = [...sent].filter((c) => !(c in ERROR_CATALOG));
  assert.deepEqual(unknown, [], 'codes sent that the catalog does not have');
});

test('each side’s codes appear in that side’s sources', () => {
  const sides: Array<[string, readonly string[], string[]]> = [
    ['the cloud’s API', API_ERROR_CODES, ['cloud/src']],
    ['jobs', JOB_ERROR_CODES, ['cloud/src', 'agent/src']],
    ['the agent window’s API', WINDOW_ERROR_CODES, ['agent/src']],
    ['the local API', LOCAL_ERROR_CODES, ['agent/src/local-server']],
    ['the SDK', SDK_ERROR_CODES, ['sdk/src']],
  ];
  for (const [side, codes, dirs] of sides) {
    const written = codesIn(...dirs);
    const never = codes.filter((c) => !written.has(c));
    assert.deepEqual(never, [], `codes listed for ${side} that ${dirs.join(' and ')} never write`);
  }
});

test('the dashboard has words for every code the API answers and every job error, and no others', () => {
  assertWords('cloud/dashboard', ['errors', 'codes'], API_ERROR_CODES);
  // The dashboard says each job error in its own words (pages/printers/status.tsx takes the
  // codes from the catalog's JOB_ERROR_CODES), any other with jobs.errors.other.
  assertWords('cloud/dashboard', ['jobs', 'errors'], JOB_ERROR_CODES, ['other']);
});

test('the agent window has words for every job error and every code its API answers, and no others', () => {
  assertWords(
    'agent/window',
    ['errors', 'codes'],
    sorted([...JOB_ERROR_CODES, ...WINDOW_ERROR_CODES]),
  );
});
