/**
 * The dashboard's catalogs (en.json, fr.json, ht.json: a translator edits these) handed to the
 * web base's i18n bootstrap (@printwire/ui/i18n), and its date and number formats.
 */
import { formatDate as format, startI18n as start } from '@printwire/ui/i18n';
import en from './en.json';

export {
  LANGUAGES,
  formatNumber,
  formatRelative,
  i18n,
  setLanguage,
  type Language,
} from '@printwire/ui/i18n';

/** Loads the visitor's language, then starts i18next (before the first render). */
export const startI18n = () =>
  start({
    en: () => Promise.resolve({ default: en }),
    fr: () => import('./fr.json'),
    ht: () => import('./ht.json'),
  });

/** A date in the chosen language ("24 Nov 2026", with the time "24 Nov 2026, 14:05"). */
export function formatDate(iso: string, withTime = false): string {
  return format(iso, withTime ? 'short' : undefined);
}
