/**
 * The tray's, the menu's and the notifications' words: the window's own catalogs
 * (agent/window/src/i18n), in the language of the operating system (else English).
 */
import en from '../window/src/i18n/en.json' with { type: 'json' };
import fr from '../window/src/i18n/fr.json' with { type: 'json' };
import ht from '../window/src/i18n/ht.json' with { type: 'json' };
import type { Translate } from './desktop.js';

type Catalog = { [key: string]: string | Catalog };
const CATALOGS: Record<string, Catalog> = { en, fr, ht };

/** `locale` as Electron's app.getLocale() gives it ("fr-FR", "ht", "en-US"). */
export function translator(locale: string): Translate {
  const catalog = CATALOGS[locale.toLowerCase().split('-')[0]!] ?? en;
  return (key, values = {}) => {
    const text = lookup(catalog, key) ?? lookup(en, key) ?? key;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? '');
  };
}

function lookup(catalog: Catalog, key: string): string | undefined {
  let node: string | Catalog | undefined = catalog;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}
