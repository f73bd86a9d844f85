/**
 * The desktop app's main process: one instance, the agent core in this process (its local
 * server serves the window's pages and answers the trust prompt through the window), then the
 * tray. Built by agent/electron/vite.config.ts into agent/electron/dist/main.js.
 */
import electron from 'electron';
import updater from 'electron-updater';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '../src/agent.js';
import { resolveDataDir } from '../src/config/data-dir.js';
import { defaultDiscoverySources } from '../src/discovery/default-sources.js';
import { WindowPrompts } from '../src/window/prompts.js';
import { DesktopApp } from './desktop.js';
import { translator } from './translate.js';

const { app, BrowserWindow, Tray, Menu, Notification, ipcMain, dialog, shell, session } = electron;
const here = fileURLToPath(new URL('.', import.meta.url));
/** Packaged: resources/icons (extraResources); from a checkout: installers/desktop/icons. */
const ICONS = app.isPackaged
  ? join(process.resourcesPath, 'icons')
  : join(here, '../../installers/desktop/icons');

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // No window at start: the app lives in the tray; closing the window keeps it running.
  app.on('window-all-closed', () => undefined);
  await app.whenReady();
  if (process.platform === 'win32') app.setAppUserModelId('com.printwire.agent');
  app.dock?.hide();
  const prompts = new WindowPrompts();
  const agent = await Agent.open({
    dataDir: resolveDataDir({}),
    discovery: await defaultDiscoverySources(),
    localServer: { prompts },
  });
  agent.start();
  const desktop = new DesktopApp({
    electron: {
      app,
      BrowserWindow,
      Tray,
      Menu,
      Notification,
      ipcMain,
      dialog,
      shell,
      session: session.defaultSession,
    },
    agent,
    t: translator(app.getLocale()),
    preload: join(here, 'preload.cjs'),
    iconsDir: ICONS,
    downloadsDir: app.getPath('downloads'),
  });
  await desktop.start();
  // A page asking to print brings the window up with the question.
  prompts.onChange(() => {
    if (prompts.pending().length > 0) void desktop.openWindow();
  });
  if (agent.state().cloud === 'not-activated') await desktop.openWindow('/activation');
  if (app.isPackaged) checkForUpdates(agent.logger);
  // The agent stops (the job in progress ends, the queue closes) before the process does.
  let stopping = false;
  app.on('before-quit', (event) => {
    if (stopping) return;
    stopping = true;
    event.preventDefault();
    void agent.stop().finally(() => app.exit(0));
  });
}

/** How often a running app looks for a new version. */
const UPDATE_INTERVAL_MS = 6 * 3600_000;

/**
 * electron-updater: the feed built into the app (electron-builder.yml `publish`, from
 * PRINTWIRE_UPDATE_URL at build time), or PRINTWIRE_UPDATE_URL at run time when set. The update
 * downloads in the background and installs when the app quits.
 */
function checkForUpdates(logger: { warn(o: object, m: string): void }): void {
  const { autoUpdater } = updater;
  const feed = process.env.PRINTWIRE_UPDATE_URL;
  if (feed) autoUpdater.setFeedURL({ provider: 'generic', url: feed });
  const check = () =>
    autoUpdater
      .checkForUpdatesAndNotify()
      .catch((error: unknown) => logger.warn({ err: error }, 'update check failed'));
  void check();
  setInterval(() => void check(), UPDATE_INTERVAL_MS).unref();
}

main().catch((error: unknown) => {
  dialog.showErrorBox('Printwire', (error as Error).message);
  app.exit(1);
});
