/**
 * The i18n bootstrap of both apps: three languages (en, fr, ht) from catalogs a translator edits.
 * Each app hands in its own catalogs (the default namespace); the shared components' words are
 * this package's catalogs (the `ui` namespace, ./i18n/*.json). The choice: the one picked in the
 * switcher (kept in localStorage, one key for both apps, so the dashboard and the agent's window
 * opened on localhost agree), else the browser's first language we have, else English.
 * `<html lang>` follows it.
 *
 * The apps' catalogs also carry `time.*` (now, minutesAgo, …), which formatRelative reads.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import uiEn from './i18n/en.json';

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'fr', name: 'Français' },
  { code: 'ht', name: 'Kreyòl ayisyen' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

type Catalog = Record<string, unknown>;
/**
 * An app's catalogs: English in the app's own file (most pages need no second request), French
 * and Creole as files of their own, loaded when chosen (`() => import('./fr.json')`).
 */
export type Catalogs = Record<Language, () => Promise<{ default: Catalog }>>;

const STORAGE_KEY = 'printwire.language';
export const UI_NAMESPACE = 'ui';

const uiCatalogs: Catalogs = {
  en: () => Promise.resolve({ default: uiEn }),
  fr: () => import('./i18n/fr.json'),
  ht: () => import('./i18n/ht.json'),
};
let appCatalogs: Catalogs | undefined;

const isLanguage = (code: string | null | undefined): code is Language =>
  LANGUAGES.some((l) => l.code === code);

function initialLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

async function load(code: Language): Promise<void> {
  const pending: Promise<void>[] = [];
  for (const [ns, catalogs] of [
    ['translation', appCatalogs],
    [UI_NAMESPACE, uiCatalogs],
  ] as const) {
    if (catalogs && !i18next.hasResourceBundle(code, ns)) {
      pending.push(
        catalogs[code]().then((m) => void i18next.addResourceBundle(code, ns, m.default)),
      );
    }
  }
  await Promise.all(pending);
}

/** Switches the language (both namespaces loaded first) and remembers the choice. */
export async function setLanguage(code: Language): Promise<void> {
  localStorage.setItem(STORAGE_KEY, code);
  await load(code);
  await i18next.changeLanguage(code);
}

i18next.on('languageChanged', (lng) => {
  document.documentElement.lang = lng;
});

/** Loads the visitor's language with the app's catalogs, then starts i18next (before the first render). */
export async function startI18n(catalogs: Catalogs): Promise<void> {
  appCatalogs = catalogs;
  const lng = initialLanguage();
  await i18next.use(initReactI18next).init({
    resources: {},
    partialBundledLanguages: true,
    lng,
    ns: ['translation', UI_NAMESPACE],
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
  await load(lng);
  // init ran before the catalogs were there: tell react-i18next the strings are in.
  await i18next.changeLanguage(lng);
  document.documentElement.lang = lng;
}

export const i18n = i18next;

/**
 * The Intl locale of a language: ICU has no Haitian Creole data, so ht borrows fr-HT's numbers
 * and shows dates with digits only (no French month names in a Creole page).
 */
export function intlLocale(): string {
  return i18next.language === 'ht' ? 'fr-HT' : i18next.language;
}

/**
 * A date (ISO string or epoch milliseconds) in the chosen language: "24 Nov 2026", with
 * `time: 'short'` "24 Nov 2026, 14:05", with `'medium'` also the seconds. Digits only in Creole.
 */
export function formatDate(when: string | number, time?: 'short' | 'medium'): string {
  const digitsOnly = i18next.language === 'ht';
  return new Intl.DateTimeFormat(intlLocale(), {
    dateStyle: digitsOnly ? 'short' : 'medium',
    ...(time ? { timeStyle: time } : {}),
  }).format(new Date(when));
}

/** A number in the chosen language (1,000 in English, 1 000 in French). */
export function formatNumber(n: number): string {
  return new Intl.NumberFormat(intlLocale()).format(n);
}

/**
 * "2 min ago", "in 3 days", from the app's catalog `time.*` (ICU has no Creole words for it).
 * `when` is an ISO string or epoch milliseconds.
 */
export function formatRelative(when: string | number, now = Date.now()): string {
  const at = typeof when === 'number' ? when : Date.parse(when);
  const seconds = Math.round((at - now) / 1000);
  const abs = Math.abs(seconds);
  const [unit, count] =
    abs >= 86_400
      ? (['days', Math.round(abs / 86_400)] as const)
      : abs >= 3_600
        ? (['hours', Math.round(abs / 3_600)] as const)
        : abs >= 60
          ? (['minutes', Math.round(abs / 60)] as const)
          : (['now', 0] as const);
  if (unit === 'now') return i18next.t('time.now');
  return i18next.t(seconds < 0 ? `time.${unit}Ago` : `time.${unit}Ahead`, { count });
}
