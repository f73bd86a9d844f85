import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The person's choices at this computer, kept apart from config.json (which the CLI edits). */
export const PREFERENCES_FILE = 'preferences.json';

const preferencesSchema = z.object({
  /**
   * Printing paused from the window or the tray. Kept across restarts: a person who paused to
   * change the paper roll does not expect a restart of the computer to start printing.
   */
  paused: z.boolean().default(false),
  /** The desktop app starts when the person logs in (applied by the Electron shell). */
  startAtLogin: z.boolean().default(true),
  /** No native notification for paper out, cover open or printer offline. */
  notificationsMuted: z.boolean().default(false),
  /** The organization's name as the cloud gave it at activation (older clouds: null). */
  organizationName: z.string().nullable().default(null),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export function loadPreferences(dataDir: string): Preferences {
  const path = join(dataDir, PREFERENCES_FILE);
  if (!existsSync(path)) return preferencesSchema.parse({});
  try {
    return preferencesSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    // A damaged file is the defaults rather than an agent that does not start.
    return preferencesSchema.parse({});
  }
}

export function savePreferences(dataDir: string, preferences: Preferences): void {
  const path = join(dataDir, PREFERENCES_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(preferences, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, path);
}
