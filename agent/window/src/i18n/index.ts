/**
 * The agent window's three languages (en, fr, ht) from catalogs a translator edits (en.json, fr.json, ht.json).
 * The choice: the one picked in the switcher (kept in localStorage), else the browser's first
 * language we have, else English. `<html lang>` follows it.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'fr', name: 'Français' },
  { code: 'ht', name: 'Kreyòl ayisyen' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

// Shared with the dashboard when both are opened on localhost: one choice of language.
const STORAGE_KEY = 'printwire.language';
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

// English is in the app's own file (most pages need no second request); French and Creole are
// files of their own, loaded when chosen.
const catalogs: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => Promise.resolve({ default: en }),
  fr: () => import('./fr.json'),
  ht: () => import('./ht.json'),
};

async function load(code: Language): Promise<void> {
  if (!i18next.hasResourceBundle(code, 'translation')) {
    i18next.addResourceBundle(code, 'translation', (await catalogs[code]()).default);
  }
}

export async function setLanguage(code: Language): Promise<void> {
  localStorage.setItem(STORAGE_KEY, code);
  await load(code);
  await i18next.changeLanguage(code);
}

i18next.on('languageChanged', (lng) => {
  document.documentElement.lang = lng;
});

/** Loads the visitor's language, then starts i18next (before the first render). */
export async function startI18n(): Promise<void> {
  const lng = initialLanguage();
  await i18next.use(initReactI18next).init({
    resources: {},
    partialBundledLanguages: true,
    lng,
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
  await load(lng);
  // init ran before the catalog was there: tell react-i18next the strings are in.
  await i18next.changeLanguage(lng);
  document.documentElement.lang = lng;
}

export const i18n = i18next;

/**
 * The Intl locale of a language: ICU has no Haitian Creole data, so ht borrows fr-HT's numbers
 * and shows dates with digits only (no French month names in a Creole page).
 */
function intlLocale(): string {
  return i18next.language === 'ht' ? 'fr-HT' : i18next.language;
}

/** A time as the window shows it: "24 Nov 2026, 14:05" (digits only in Creole). */
export function formatTime(ms: number): string {
  const digitsOnly = i18next.language === 'ht';
  return new Intl.DateTimeFormat(intlLocale(), {
    dateStyle: digitsOnly ? 'short' : 'medium',
    timeStyle: 'medium',
  }).format(new Date(ms));
}

/** "2 min ago", "in 3 min", from the catalogs (ICU has no Creole words for it). */
export function formatRelative(ms: number, now = Date.now()): string {
  const seconds = Math.round((ms - now) / 1000);
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
