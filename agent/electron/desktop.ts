/**
 * The desktop app: a thin adapter between Electron and the agent running in the same process.
 * Everything Electron is injected (`ElectronParts`), so the tests replace it at this boundary;
 * main.ts passes the real modules. The window shows the agent's own pages (agent/window/), served
 * by its local server; the tray and the notifications follow the agent's events.
 */
import type {
  BrowserWindowConstructorOptions,
  MenuItemConstructorOptions,
  NotificationConstructorOptions,
} from 'electron';
import type { AgentState, PrinterAttention } from '../src/window/agent-state.js';
import { needsAttention } from '../src/window/agent-state.js';
import {
  guardContents,
  guardSession,
  isTrustedSender,
  windowOptions,
  type GuardedContents,
  type GuardedSession,
} from './secure-window.js';
import { trayIconPath } from './tray-state.js';

/** What the desktop app asks of the agent (the `Agent` has it). */
export interface DesktopAgent {
  readonly dataDir: string;
  readonly paused: boolean;
  readonly preferences: { startAtLogin: boolean; notificationsMuted: boolean };
  state(): AgentState;
  onState(listener: (state: AgentState) => void): () => void;
  onPrinterStatus(listener: (printer: PrinterAttention) => void): () => void;
  pause(): void;
  resume(): void;
  updateSettings(change: { startAtLogin?: boolean }): unknown;
  exportLogs(out: string): Promise<{ files: string[] }>;
  windowUrl(): Promise<string | null>;
}

export interface WindowLike {
  webContents: GuardedContents & { session?: unknown };
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
}

export interface TrayLike {
  setImage(image: string): void;
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface IpcEvent {
  sender: unknown;
  senderFrame: { url: string } | null;
}

/** The parts of Electron the app uses; main.ts passes Electron's own. */
export interface ElectronParts {
  app: {
    quit(): void;
    setLoginItemSettings(settings: { openAtLogin: boolean; openAsHidden?: boolean }): void;
    on(event: 'second-instance' | 'before-quit', listener: () => void): unknown;
  };
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => WindowLike;
  Tray: new (image: string) => TrayLike;
  Menu: { buildFromTemplate(template: MenuItemConstructorOptions[]): unknown };
  Notification: new (options: NotificationConstructorOptions) => { show(): void };
  ipcMain: {
    handle(channel: string, listener: (event: IpcEvent, ...args: unknown[]) => unknown): void;
  };
  dialog: {
    showSaveDialog(options: {
      defaultPath: string;
      filters: Array<{ name: string; extensions: string[] }>;
    }): Promise<{ canceled: boolean; filePath?: string }>;
  };
  shell: { openPath(path: string): Promise<string> };
  session: GuardedSession;
}

/** The words of the tray, its menu and the notifications, in the person's language. */
export type Translate = (key: string, values?: Record<string, string>) => string;

export interface DesktopOptions {
  electron: ElectronParts;
  agent: DesktopAgent;
  t: Translate;
  /** The sandboxed preload script (built next to main.js). */
  preload: string;
  /** installers/desktop/icons (tray-<state>.png). */
  iconsDir: string;
  /** Where "Export logs…" proposes to save. */
  downloadsDir: string;
}

/** The IPC channels the preload exposes; every call's sender is checked. */
export const IPC = {
  exportLogs: 'printwire:export-logs',
  openDataFolder: 'printwire:open-data-folder',
} as const;

export class DesktopApp {
  readonly #o: DesktopOptions;
  #tray: TrayLike | null = null;
  #window: WindowLike | null = null;
  #origin = '';
  #state: AgentState;
  readonly #offs: Array<() => void> = [];
  /** The last status notified per printer, so a status is told once. */
  readonly #notified = new Map<string, string>();

  constructor(options: DesktopOptions) {
    this.#o = options;
    this.#state = options.agent.state();
  }

  get window(): WindowLike | null {
    return this.#window;
  }

  get tray(): TrayLike | null {
    return this.#tray;
  }

  /** Sets up the session's guards, the tray, the notifications and IPC (after app ready). */
  async start(): Promise<void> {
    const { electron, agent } = this.#o;
    const url = await agent.windowUrl();
    if (!url) throw new Error('the local server is off: the desktop app needs it for its window');
    this.#origin = new URL(url).origin;
    guardSession(electron.session);
    electron.app.setLoginItemSettings({
      openAtLogin: agent.preferences.startAtLogin,
      openAsHidden: true,
    });
    this.#tray = new electron.Tray(trayIconPath(this.#o.iconsDir, this.#state.tray));
    this.#tray.on('click', () => void this.openWindow());
    this.#showState(this.#state);
    this.#offs.push(
      agent.onState((state) => this.#showState(state)),
      agent.onPrinterStatus((printer) => this.#notify(printer)),
    );
    electron.app.on('second-instance', () => void this.openWindow());
    electron.ipcMain.handle(IPC.exportLogs, (event) =>
      this.#trusted(event) ? this.exportLogs() : null,
    );
    electron.ipcMain.handle(IPC.openDataFolder, (event) =>
      this.#trusted(event) ? electron.shell.openPath(agent.dataDir) : null,
    );
  }

  #trusted(event: IpcEvent): boolean {
    return isTrustedSender(event, this.#window, this.#origin);
  }

  /** Shows the window (made at first use), at the page `path` of the local server. */
  async openWindow(path = '/'): Promise<WindowLike> {
    const existing = this.#window;
    if (existing && !existing.isDestroyed()) {
      if (existing.isMinimized()) existing.restore();
      existing.show();
      existing.focus();
      return existing;
    }
    const url = await this.#o.agent.windowUrl();
    if (!url) throw new Error('the local server is off');
    const window = new this.#o.electron.BrowserWindow(windowOptions(this.#o.preload, 'Printwire'));
    guardContents(window.webContents, this.#origin);
    window.once('ready-to-show', () => window.show());
    window.on('closed', () => {
      if (this.#window === window) this.#window = null;
    });
    this.#window = window;
    const address = new URL(url);
    address.pathname = path;
    await window.loadURL(address.toString());
    return window;
  }

  #showState(state: AgentState): void {
    this.#state = state;
    const tray = this.#tray;
    if (!tray) return;
    const { t } = this.#o;
    tray.setImage(trayIconPath(this.#o.iconsDir, state.tray));
    const first = state.attention[0];
    tray.setToolTip(
      first ? `${t(`desktop.tray.${state.tray}`)}: ${first.name}` : t(`desktop.tray.${state.tray}`),
    );
    tray.setContextMenu(this.#o.electron.Menu.buildFromTemplate(this.menuTemplate()));
  }

  /** The tray's menu: the state, Pause/Resume, Open, Start at login, Export logs, Quit. */
  menuTemplate(): MenuItemConstructorOptions[] {
    const { t, agent, electron } = this.#o;
    const state = this.#state;
    return [
      { label: t(`desktop.tray.${state.tray}`), enabled: false },
      ...state.attention.map((p) => ({
        label: `${p.name}: ${t(`printerStatus.${p.status}`)}`,
        enabled: false,
      })),
      { type: 'separator' },
      state.paused
        ? { label: t('desktop.menu.resume'), click: () => agent.resume() }
        : { label: t('desktop.menu.pause'), click: () => agent.pause() },
      { label: t('desktop.menu.open'), click: () => void this.openWindow() },
      {
        label: t('desktop.menu.startAtLogin'),
        type: 'checkbox',
        checked: agent.preferences.startAtLogin,
        click: (item: { checked: boolean }) => {
          agent.updateSettings({ startAtLogin: item.checked });
          electron.app.setLoginItemSettings({ openAtLogin: item.checked, openAsHidden: true });
        },
      },
      { label: t('desktop.menu.exportLogs'), click: () => void this.exportLogs() },
      { type: 'separator' },
      { label: t('desktop.menu.quit'), click: () => this.quit() },
    ] as MenuItemConstructorOptions[];
  }

  /** Asks where to save, then writes the support zip there; returns the path (null: cancelled). */
  async exportLogs(): Promise<string | null> {
    const { electron, agent, t } = this.#o;
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    const answer = await electron.dialog.showSaveDialog({
      defaultPath: `${this.#o.downloadsDir}/printwire-agent-logs-${stamp}.zip`,
      filters: [{ name: 'Zip', extensions: ['zip'] }],
    });
    if (answer.canceled || !answer.filePath) return null;
    try {
      await agent.exportLogs(answer.filePath);
      new electron.Notification({
        title: t('desktop.notify.exported', { path: answer.filePath }),
      }).show();
      return answer.filePath;
    } catch (error) {
      new electron.Notification({
        title: t('desktop.notify.exportFailed', { message: (error as Error).message }),
      }).show();
      return null;
    }
  }

  /** Paper out, cover open, offline, error: told once per change, unless muted. */
  #notify(printer: PrinterAttention): void {
    const before = this.#notified.get(printer.agentPrinterId);
    this.#notified.set(printer.agentPrinterId, printer.status);
    if (!needsAttention(printer.status) || before === printer.status) return;
    if (this.#o.agent.preferences.notificationsMuted) return;
    const { t, electron } = this.#o;
    new electron.Notification({
      title: t(`desktop.notify.${printer.status}`, { name: printer.name }),
      body: t('desktop.notify.body'),
    }).show();
  }

  /** Quits the app; main.ts stops the agent (its queue, its server) before the process ends. */
  quit(): void {
    for (const off of this.#offs.splice(0)) off();
    this.#tray?.destroy();
    this.#tray = null;
    this.#o.electron.app.quit();
  }
}
