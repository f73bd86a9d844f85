/**
 * The web base's catalogs (ui/src/i18n/{en,fr,ht}.json, the `ui` namespace): every key in every
 * language, none empty; every key its components ask for is there; and each app's catalogs carry
 * the `time.*` words that the base's formatRelative reads from them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const ROOT = new URL('../', import.meta.url).pathname;
const LANGUAGES = ['en', 'fr', 'ht'] as const;
const TIME_KEYS = [
  'now',
  'minutesAgo',
  'hoursAgo',
  'daysAgo',
  'minutesAhead',
  'hoursAhead',
  'daysAhead',
];

const read = (path: string) =>
  JSON.parse(readFileSync(ROOT + path, 'utf8')) as Record<string, unknown>;
const ui = Object.fromEntries(LANGUAGES.map((l) => [l, read(`ui/src/i18n/${l}.json`)]));

test('every key of the web base is in English, French and Haitian Creole, none empty', () => {
  const keys = Object.keys(ui.en!).sort();
  assert.ok(keys.length >= 5);
  for (const lang of LANGUAGES) {
    assert.deepEqual(
      Object.keys(ui[lang]!).sort(),
      keys,
      `ui/src/i18n/${lang}.json has the keys of en.json`,
    );
    for (const [key, text] of Object.entries(ui[lang]!)) {
      assert.ok(typeof text === 'string' && text.trim() !== '', `${lang}.json ${key} has words`);
    }
  }
  assert.equal(ui.ht!.cancel, 'Anile', 'Creole as DESIGN.md says it');
});

test("every key the base's components ask for is in its catalog", () => {
  const used = new Set<string>();
  for (const name of readdirSync(ROOT + 'ui/src')) {
    if (!name.endsWith('.tsx')) continue;
    const code = readFileSync(`${ROOT}ui/src/${name}`, 'utf8');
    if (!code.includes("useTranslation('ui')")) continue;
    for (const m of code.matchAll(/\bt\(\s*'([\w.]+)'/g)) used.add(m[1]!);
  }
  assert.ok(used.size >= 5, `found ${used.size} keys: the scan looks in the right place`);
  assert.deepEqual(
    [...used].filter((k) => !(k in ui.en!)),
    [],
  );
});

test('both apps give the base the words of relative times, in the three languages', () => {
  for (const app of ['cloud/dashboard', 'agent/window']) {
    for (const lang of LANGUAGES) {
      const time = read(`${app}/src/i18n/${lang}.json`).time as Record<string, string> | undefined;
      const missing = TIME_KEYS.filter((k) => !time?.[k]?.trim());
      assert.deepEqual(missing, [], `${app}/src/i18n/${lang}.json time.*`);
    }
  }
});
