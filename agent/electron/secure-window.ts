/**
 * Electron's security checklist for the agent's window, in one place so a test can hold every
 * window to it: the renderer is a sandboxed web page of the local server's origin, with no Node,
 * no navigation or new window elsewhere, no permission, and a strict CSP.
 */
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/** The web preferences of every BrowserWindow the desktop app creates. */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    devTools: process.env.PRINTWIRE_DEVTOOLS === '1',
  };
}

export function windowOptions(preload: string, title: string): BrowserWindowConstructorOptions {
  return {
    width: 1000,
    height: 720,
    minWidth: 360,
    minHeight: 480,
    title,
    show: false,
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(preload),
  };
}

/** The CSP added to every response the window receives (the local server sends it too). */
export const DESKTOP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
  "frame-ancestors 'none'";

/** Whether `url` is on the local server's origin (the only place the window may go). */
export function isAllowedUrl(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** The few events of a WebContents the guards need (Electron's WebContents has them). */
export interface GuardedContents {
  on(
    event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate',
    listener: (event: { preventDefault(): void; url: string }, url: string) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(
    handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' },
  ): void;
}

/**
 * Blocks navigation, redirects and window.open to anything but the local server's origin, and
 * webviews altogether. A window.open to the origin is refused too: the app has one window.
 */
export function guardContents(contents: GuardedContents, origin: string): void {
  const stay = (event: { preventDefault(): void }, url: string) => {
    if (!isAllowedUrl(url, origin)) event.preventDefault();
  };
  contents.on('will-navigate', (event, url) => stay(event, url ?? event.url));
  contents.on('will-redirect', (event, url) => stay(event, url ?? event.url));
  contents.on('will-frame-navigate', (event, url) => stay(event, url ?? event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** The session's part: no permission (camera, notifications from the page, ...), the CSP. */
export interface GuardedSession {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: () => boolean): void;
  webRequest: {
    onHeadersReceived(
      listener: (
        details: { responseHeaders?: Record<string, string[]> },
        callback: (response: { responseHeaders: Record<string, string[]> }) => void,
      ) => void,
    ): void;
  };
}

export function guardSession(session: GuardedSession): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [DESKTOP_CSP],
      },
    });
  });
}

/** An IPC message's sender: only the app's own window, showing a page of the local server. */
export function isTrustedSender(
  event: { sender: unknown; senderFrame: { url: string } | null },
  window: { webContents: unknown } | null,
  origin: string,
): boolean {
  return (
    window !== null &&
    event.sender === window.webContents &&
    event.senderFrame !== null &&
    isAllowedUrl(event.senderFrame.url, origin)
  );
}
