import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  configTemplateSchema,
  localSettingsSchema,
  type ConfigTemplate,
} from '@printwire/shared/protocol/index';

/**
 * What local mode keeps in the data dir besides the queue: the organization's local settings
 * and templates (the last `config` from the cloud, so that they hold offline and after a
 * restart) and the person's answers per origin. JSON files written atomically.
 */
export const LOCAL_SETTINGS_FILE = 'local-settings.json';
export const TEMPLATES_FILE = 'templates.json';
export const ORIGINS_FILE = 'local-origins.json';

export { localSettingsSchema };
export type LocalSettings = z.infer<typeof localSettingsSchema>;

/** A new organization's defaults (the contract's): everything off, nothing allowed. */
export const DEFAULT_LOCAL_SETTINGS: LocalSettings = {
  requireSignature: false,
  unsignedModeEnabled: false,
  devModeEnabled: false,
  allowedOrigins: [],
  signingKeys: [],
  localDownloadsToPrivateNetwork: false,
};

/** A template as the cloud's config carries it, stored to render offline. */
export const storedTemplateSchema = configTemplateSchema;
export type StoredTemplate = ConfigTemplate;

export const ORIGIN_ANSWERS = ['allow', 'block'] as const;
export type OriginAnswer = (typeof ORIGIN_ANSWERS)[number];
const originsFileSchema = z.record(
  z.string(),
  z.object({ answer: z.enum(ORIGIN_ANSWERS), at: z.string() }),
);
export type OriginAnswers = z.infer<typeof originsFileSchema>;

function writeAtomic(path: string, value: unknown): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, path);
}

function readJson<T>(path: string, schema: z.ZodType<T>, fallback: T): T {
  if (!existsSync(path)) return fallback;
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : fallback;
  } catch {
    // A torn or hand-broken file: start from the defaults (the cloud sends them again).
    return fallback;
  }
}

export function loadLocalSettings(dataDir: string): LocalSettings {
  return readJson(join(dataDir, LOCAL_SETTINGS_FILE), localSettingsSchema, DEFAULT_LOCAL_SETTINGS);
}

export function saveLocalSettings(dataDir: string, settings: LocalSettings): void {
  writeAtomic(join(dataDir, LOCAL_SETTINGS_FILE), settings);
}

export function loadTemplates(dataDir: string): StoredTemplate[] {
  return readJson(join(dataDir, TEMPLATES_FILE), z.array(storedTemplateSchema), []);
}

export function saveTemplates(dataDir: string, templates: StoredTemplate[]): void {
  writeAtomic(join(dataDir, TEMPLATES_FILE), templates);
}

/** The answers kept per origin (`printwire-agent origins`); read at each decision. */
export function loadOriginAnswers(dataDir: string): OriginAnswers {
  return readJson(join(dataDir, ORIGINS_FILE), originsFileSchema, {});
}

/** Sets (or, with null, forgets) the answer for one origin. */
export function setOriginAnswer(
  dataDir: string,
  origin: string,
  answer: OriginAnswer | null,
  at: Date = new Date(),
): OriginAnswers {
  const answers = { ...loadOriginAnswers(dataDir) };
  if (answer === null) delete answers[origin];
  else answers[origin] = { answer, at: at.toISOString() };
  writeAtomic(join(dataDir, ORIGINS_FILE), answers);
  return answers;
}

/**
 * An origin as browsers send it: `scheme://host[:port]`, lower case, no path, default ports
 * left out. Null when the text is not one.
 */
export function normalizeOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== '/' || /[^/]\/$|\/\/.*\//.test(text.replace(/^[a-z]+:\/\//i, '//'))) {
    return null;
  }
  return url.origin;
}
