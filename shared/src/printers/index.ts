/**
 * Printer profiles: the data files in `shared/data/printers/`, validated when first used.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { PrintwireError, formatPath } from '../errors/index.js';
import { printerProfileSchema, type PrinterProfile } from './schema.js';

export { printerProfileSchema, escTNumber, BARCODE_FORMATS } from './schema.js';
export type { PrinterProfile, BarcodeFormat } from './schema.js';

const PROFILE_DIR = new URL('../../data/printers/', import.meta.url);

/**
 * Validates one profile. `source` names where it came from (a file) in the error, which lists
 * every invalid field: `generic-80mm.json: printer profile is invalid: dotsPerLine: …`.
 */
export function parsePrinterProfile(input: unknown, source: string): PrinterProfile {
  const result = printerProfileSchema.safeParse(input);
  if (!result.success) {
    const fields = result.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join('; ');
    throw new PrintwireError('INTERNAL', `${source}: printer profile is invalid: ${fields}`);
  }
  return result.data;
}

/** Reads and validates every profile file of a folder; a file's name must be its id. */
export function loadPrinterProfiles(dir: URL | string = PROFILE_DIR): Map<string, PrinterProfile> {
  const profiles = new Map<string, PrinterProfile>();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  for (const file of files) {
    const url = typeof dir === 'string' ? `${dir.replace(/\/$/, '')}/${file}` : new URL(file, dir);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(url, 'utf8'));
    } catch (err) {
      throw new PrintwireError('INTERNAL', `${file}: printer profile is not valid JSON`, {
        cause: err,
      });
    }
    const profile = parsePrinterProfile(json, file);
    if (`${profile.id}.json` !== file) {
      throw new PrintwireError(
        'INTERNAL',
        `${file}: printer profile id "${profile.id}" must match its file name`,
      );
    }
    profiles.set(profile.id, profile);
  }
  return profiles;
}

let cache: Map<string, PrinterProfile> | undefined;

function profiles(): Map<string, PrinterProfile> {
  cache ??= loadPrinterProfiles();
  return cache;
}

/** The profile with this id; throws PrintwireError NOT_FOUND for an unknown id. */
export function getPrinterProfile(id: string): PrinterProfile {
  const profile = profiles().get(id);
  if (profile === undefined) {
    throw new PrintwireError(
      'NOT_FOUND',
      `unknown printer profile "${id}"; known profiles: ${[...profiles().keys()].join(', ')}`,
    );
  }
  return profile;
}

/** Every shipped profile, sorted by id. */
export function listPrinterProfiles(): PrinterProfile[] {
  return [...profiles().values()];
}
