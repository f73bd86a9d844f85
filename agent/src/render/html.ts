/**
 * HTML jobs on the agent: the browser it renders them with (the computer's Chrome, Edge or
 * Chromium; never downloaded) and the renderer, which lives in @printwire/shared/documents so
 * that the cloud's sandbox previews HTML labels with the same code.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PrintwireError } from '@printwire/shared/errors/index';
import { HtmlPdfRenderer } from '@printwire/shared/documents/html-pdf';

export { HTML_LIMITS, removeOrphanProfiles } from '@printwire/shared/documents/html-pdf';

export interface BrowserSearch {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  exists?: (path: string) => boolean;
}

/** Where Chrome, Edge and Chromium are installed by default, per OS, in order of preference. */
export function browserCandidates(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(
      (r): r is string => !!r,
    );
    return [
      ...roots.map((r) => join(r, 'Google', 'Chrome', 'Application', 'chrome.exe')),
      ...roots.map((r) => join(r, 'Microsoft', 'Edge', 'Application', 'msedge.exe')),
      ...roots.map((r) => join(r, 'Chromium', 'Application', 'chrome.exe')),
    ];
  }
  if (platform === 'darwin') {
    const apps = ['Google Chrome', 'Microsoft Edge', 'Chromium'];
    const binary = {
      'Google Chrome': 'Google Chrome',
      'Microsoft Edge': 'Microsoft Edge',
      Chromium: 'Chromium',
    };
    return [
      ...apps.map(
        (a) => `/Applications/${a}.app/Contents/MacOS/${binary[a as keyof typeof binary]}`,
      ),
      ...apps.map(
        (a) =>
          `${env.HOME ?? ''}/Applications/${a}.app/Contents/MacOS/${binary[a as keyof typeof binary]}`,
      ),
    ];
  }
  return [
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/usr/bin/microsoft-edge-stable',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
  ];
}

/**
 * The browser HTML jobs are rendered with: `PRINTWIRE_BROWSER` when set, else the first installed
 * Chrome, Edge or Chromium. The agent never downloads one. Throws NO_BROWSER when none is found.
 */
export function findBrowser(search: BrowserSearch = {}): string {
  const env = search.env ?? process.env;
  const exists = search.exists ?? existsSync;
  const chosen = env.PRINTWIRE_BROWSER;
  if (chosen) {
    if (exists(chosen)) return chosen;
    throw new PrintwireError(
      'NO_BROWSER',
      `PRINTWIRE_BROWSER is ${chosen}, which does not exist; point it at chrome, msedge or chromium`,
    );
  }
  const candidates = browserCandidates(search.platform ?? process.platform, env);
  const found = candidates.find((path) => exists(path));
  if (found) return found;
  throw new PrintwireError(
    'NO_BROWSER',
    'HTML jobs need Google Chrome, Microsoft Edge or Chromium on this computer; none was found ' +
      `(looked in ${candidates.join(', ')}). Install one, or set PRINTWIRE_BROWSER to its executable`,
  );
}

export interface HtmlRendererOptions {
  /** The browser's executable; default `findBrowser()`. */
  executablePath?: string;
  /**
   * Refuse http:// sub-resources (production; per job with `renderToPdf`'s option). https,
   * data: and blob: are always allowed, file: and other schemes never.
   */
  production?: boolean;
  /** Default `HTML_LIMITS.renderTimeoutMs`. */
  renderTimeoutMs?: number;
  /** Default `HTML_LIMITS.launchTimeoutMs`. */
  launchTimeoutMs?: number;
}

/**
 * Renders HTML jobs to PDF with the computer's own Chrome, Edge or Chromium, honouring the
 * page's `@page` size and margins: the shared renderer (@printwire/shared/documents/html-pdf,
 * which the cloud's sandbox draws HTML label previews with), started on the first job with the
 * browser `findBrowser` finds, and reused until `close`.
 */
export class HtmlRenderer extends HtmlPdfRenderer {
  constructor(options: HtmlRendererOptions = {}) {
    const { executablePath, ...rest } = options;
    super({ ...rest, executablePath: executablePath ?? (() => findBrowser()) });
  }
}
