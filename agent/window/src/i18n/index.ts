/**
 * The agent window's catalogs (en.json, fr.json, ht.json: a translator edits these) handed to the
 * web base's i18n bootstrap (@printwire/ui/i18n). The language is one choice with the dashboard
 * when both are opened on localhost (the same localStorage key).
 */
import { formatDate, startI18n as start } from '@printwire/ui/i18n';
import en from './en.json';

export { LANGUAGES, formatRelative, i18n, setLanguage, type Language } from '@printwire/ui/i18n';

/** Loads the visitor's language, then starts i18next (before the first render). */
export const startI18n = () =>
  start({
    en: () => Promise.resolve({ default: en }),
    fr: () => import('./fr.json'),
    ht: () => import('./ht.json'),
  });

/** A time as the window shows it: "24 Nov 2026, 14:05:09" (digits only in Creole). */
export function formatTime(ms: number): string {
  return formatDate(ms, 'medium');
}
