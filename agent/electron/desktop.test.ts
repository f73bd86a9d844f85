import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MenuItemConstructorOptions } from 'electron';
import { agentState, type AgentState, type PrinterAttention } from '../src/window/agent-state.js';
import {
  DesktopApp,
  IPC,
  type DesktopAgent,
  type ElectronParts,
  type IpcEvent,
  type TrayLike,
  type WindowLike,
} from './desktop.js';
import { DESKTOP_CSP } from './secure-window.js';
import { translator } from './translate.js';

const ORIGIN = 'http://localhost:21910';

class FakeAgent implements DesktopAgent {
  readonly dataDir = '/data';
  paused = false;
  preferences = { startAtLogin: true, notificationsMuted: false };
  current: AgentState = agentState({ cloud: 'connected', paused: false, printers: [] });
  readonly calls: string[] = [];
  readonly #state = new Set<(s: AgentState) => void>();
  readonly #printer = new Set<(p: PrinterAttention) => void>();
  state = () => this.current;
  onState(l: (s: AgentState) => void) {
    this.#state.add(l);
    return () => this.#state.delete(l);
  }
  onPrinterStatus(l: (p: PrinterAttention) => void) {
    this.#printer.add(l);
    return () => this.#printer.delete(l);
  }
  emit(state: AgentState) {
    this.current = state;
    for (const l of this.#state) l(state);
  }
  status(p: PrinterAttention) {
    for (const l of this.#printer) l(p);
  }
  pause = () => void this.calls.push('pause');
  resume = () => void this.calls.push('resume');
  updateSettings = (c: unknown) => void this.calls.push(`settings ${JSON.stringify(c)}`);
  exportLogs = async (out: string) => {
    this.calls.push(`export ${out}`);
    return { files: [] };
  };
  windowUrl = async () => `${ORIGIN}/#key=k`;
}

type Listener = (...args: never[]) => unknown;

/** Electron's modules as the adapter sees them, recording what it asks of them. */
function fakeElectron() {
  const windows: Array<{ options: unknown; window: WindowLike; handlers: Map<string, Listener> }> =
    [];
  const notifications: Array<{ title?: string; body?: string }> = [];
  const ipc = new Map<string, (event: IpcEvent, ...args: unknown[]) => unknown>();
  const trays: Array<{ image: string; tooltip: string; menu: MenuItemConstructorOptions[] }> = [];
  type PermissionHandler = (c: unknown, p: string, cb: (g: boolean) => void) => void;
  type HeadersHandler = (d: unknown, cb: (r: unknown) => void) => void;
  const session: {
    permission: PermissionHandler | null;
    headers: HeadersHandler | null;
    setPermissionRequestHandler(h: PermissionHandler): void;
    setPermissionCheckHandler(): void;
    webRequest: { onHeadersReceived(h: HeadersHandler): void };
  } = {
    permission: null,
    headers: null,
    setPermissionRequestHandler(h) {
      session.permission = h;
    },
    setPermissionCheckHandler() {},
    webRequest: {
      onHeadersReceived(h) {
        session.headers = h;
      },
    },
  };
  const loginItems: unknown[] = [];
  const parts: ElectronParts = {
    app: {
      quit() {},
      setLoginItemSettings: (s) => void loginItems.push(s),
      on() {},
    },
    BrowserWindow: class {
      readonly webContents;
      readonly handlers = new Map<string, Listener>();
      constructor(options: unknown) {
        const handlers = this.handlers;
        this.webContents = {
          on(event: string, listener: Listener) {
            handlers.set(event, listener);
          },
          setWindowOpenHandler(h: Listener) {
            handlers.set('window-open', h);
          },
        };
        windows.push({ options, window: this as unknown as WindowLike, handlers });
      }
      async loadURL() {}
      show() {}
      focus() {}
      isDestroyed() {
        return false;
      }
      isMinimized() {
        return false;
      }
      restore() {}
      once() {}
      on() {}
    } as unknown as ElectronParts['BrowserWindow'],
    Tray: class implements TrayLike {
      readonly record = { image: '', tooltip: '', menu: [] as MenuItemConstructorOptions[] };
      constructor(image: string) {
        this.record.image = image;
        trays.push(this.record);
      }
      setImage(image: string) {
        this.record.image = image;
      }
      setToolTip(text: string) {
        this.record.tooltip = text;
      }
      setContextMenu(menu: unknown) {
        this.record.menu = menu as MenuItemConstructorOptions[];
      }
      on() {}
      destroy() {}
    },
    Menu: { buildFromTemplate: (template) => template },
    Notification: class {
      constructor(readonly options: { title?: string; body?: string }) {}
      show() {
        notifications.push(this.options);
      }
    } as unknown as ElectronParts['Notification'],
    ipcMain: { handle: (channel, listener) => void ipc.set(channel, listener) },
    dialog: { showSaveDialog: async () => ({ canceled: false, filePath: '/tmp/logs.zip' }) },
    shell: { openPath: async () => '' },
    session: session as unknown as ElectronParts['session'],
  };
  return { parts, windows, notifications, ipc, trays, session, loginItems };
}

async function started(locale = 'en') {
  const agent = new FakeAgent();
  const electron = fakeElectron();
  const app = new DesktopApp({
    electron: electron.parts,
    agent,
    t: translator(locale),
    preload: '/app/preload.cjs',
    iconsDir: '/icons',
    downloadsDir: '/home/me/Downloads',
  });
  await app.start();
  return { agent, electron, app };
}

const labels = (menu: MenuItemConstructorOptions[]) => menu.map((i) => i.label).filter(Boolean);

describe('the desktop app over the agent', () => {
  test('the tray icon, its words and its menu follow the agent state', async () => {
    const { agent, electron } = await started();
    const tray = electron.trays[0]!;
    assert.equal(tray.image, '/icons/tray-connected.png');
    assert.equal(tray.tooltip, 'Printwire: connected');
    assert.deepEqual(labels(tray.menu), [
      'Printwire: connected',
      'Pause printing',
      'Open Printwire',
      'Start at login',
      'Export logs…',
      'Quit Printwire',
    ]);
    const printers = [
      {
        agentPrinterId: 'p1',
        name: 'Till',
        alias: null,
        uri: 'tcp://x',
        connection: 'tcp',
        kind: 'receipt',
        language: 'escpos',
        paper: '80mm',
        codepage: null,
        capabilities: [],
        status: 'paper_out',
        isDefault: true,
      },
    ] as Parameters<typeof agentState>[0]['printers'];
    agent.emit(agentState({ cloud: 'connected', paused: false, printers }));
    assert.equal(tray.image, '/icons/tray-attention.png');
    assert.equal(tray.tooltip, 'Printwire: a printer needs attention: Till');
    assert.ok(labels(tray.menu).includes('Till: Paper out'));
    agent.emit(agentState({ cloud: 'connected', paused: true, printers }));
    assert.equal(tray.image, '/icons/tray-paused.png');
    assert.ok(labels(tray.menu).includes('Resume printing'));
    const resume = tray.menu.find((i) => i.label === 'Resume printing')!;
    (resume.click as () => void)();
    assert.deepEqual(agent.calls, ['resume']);
    agent.emit(agentState({ cloud: 'offline', paused: false, printers: [] }));
    assert.equal(tray.image, '/icons/tray-offline.png');
    assert.equal(tray.tooltip, 'Printwire: offline');
  });

  test('the tray speaks the language of the system', async () => {
    const { electron } = await started('fr-FR');
    assert.equal(electron.trays[0]!.tooltip, 'Printwire : connecté');
    assert.ok(labels(electron.trays[0]!.menu).includes("Mettre l'impression en pause"));
  });

  test('every window is created with the secure options', async () => {
    const { app, electron } = await started();
    await app.openWindow();
    await app.openWindow('/queue');
    assert.equal(electron.windows.length, 1, 'one window, shown again');
    const { webPreferences } = electron.windows[0]!.options as {
      webPreferences: Record<string, unknown>;
    };
    assert.deepEqual(
      {
        contextIsolation: webPreferences.contextIsolation,
        sandbox: webPreferences.sandbox,
        nodeIntegration: webPreferences.nodeIntegration,
        nodeIntegrationInWorker: webPreferences.nodeIntegrationInWorker,
        webSecurity: webPreferences.webSecurity,
        allowRunningInsecureContent: webPreferences.allowRunningInsecureContent,
        webviewTag: webPreferences.webviewTag,
        preload: webPreferences.preload,
      },
      {
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        preload: '/app/preload.cjs',
      },
    );
  });

  test('navigation and window.open leave the local server only to be refused', async () => {
    const { app, electron } = await started();
    await app.openWindow();
    const { handlers } = electron.windows[0]!;
    const navigate = (event: string, url: string) => {
      let prevented = false;
      (handlers.get(event) as (e: unknown, u: string) => void)(
        { preventDefault: () => (prevented = true), url },
        url,
      );
      return prevented;
    };
    for (const event of ['will-navigate', 'will-redirect', 'will-frame-navigate']) {
      assert.equal(navigate(event, 'https://evil.example/'), true, event);
      assert.equal(navigate(event, 'http://localhost:21911/'), true, `${event} another port`);
      assert.equal(navigate(event, `${ORIGIN}/queue`), false, `${event} stays`);
    }
    const open = handlers.get('window-open') as (d: { url: string }) => { action: string };
    assert.equal(open({ url: 'https://evil.example/' }).action, 'deny');
    assert.equal(open({ url: `${ORIGIN}/logs` }).action, 'deny');
    let webview = false;
    (handlers.get('will-attach-webview') as (e: unknown) => void)({
      preventDefault: () => (webview = true),
    });
    assert.equal(webview, true);
  });

  test('the session grants no permission and adds the strict CSP', async () => {
    const { electron } = await started();
    let granted: boolean | null = null;
    electron.session.permission!(null, 'media', (g) => (granted = g));
    assert.equal(granted, false);
    let headers: Record<string, string[]> = {};
    electron.session.headers!({ responseHeaders: { 'X-A': ['1'] } }, (r) => {
      headers = (r as { responseHeaders: Record<string, string[]> }).responseHeaders;
    });
    assert.deepEqual(headers['Content-Security-Policy'], [DESKTOP_CSP]);
    assert.match(DESKTOP_CSP, /script-src 'self';/);
    assert.doesNotMatch(DESKTOP_CSP, /unsafe/);
  });

  test('IPC answers the app window on the local server only', async () => {
    const { app, agent, electron } = await started();
    const exportLogs = electron.ipc.get(IPC.exportLogs)!;
    assert.equal(await exportLogs({ sender: {}, senderFrame: { url: `${ORIGIN}/` } }), null);
    const window = await app.openWindow();
    assert.equal(
      await exportLogs({
        sender: window.webContents,
        senderFrame: { url: 'https://evil.example/' },
      }),
      null,
    );
    assert.equal(await exportLogs({ sender: window.webContents, senderFrame: null }), null);
    assert.deepEqual(agent.calls, [], 'nothing exported for an untrusted sender');
    assert.equal(
      await exportLogs({ sender: window.webContents, senderFrame: { url: `${ORIGIN}/logs` } }),
      '/tmp/logs.zip',
    );
    assert.deepEqual(agent.calls, ['export /tmp/logs.zip']);
  });

  test('paper out, cover open and offline are notified once each, unless muted', async () => {
    const { agent, electron } = await started();
    const till = (status: PrinterAttention['status']) => ({
      agentPrinterId: 'p1',
      name: 'Till',
      status,
    });
    agent.status(till('online'));
    agent.status(till('paper_out'));
    agent.status(till('paper_out'));
    agent.status(till('cover_open'));
    agent.status(till('offline'));
    assert.deepEqual(
      electron.notifications.map((n) => n.title),
      ['Till is out of paper', 'The cover of Till is open', 'Till is offline'],
    );
    agent.preferences.notificationsMuted = true;
    agent.status(till('online'));
    agent.status(till('paper_out'));
    assert.equal(electron.notifications.length, 3, 'muted: no more');
  });

  test('start at login follows the preference and the menu', async () => {
    const { agent, electron } = await started();
    assert.deepEqual(electron.loginItems, [{ openAtLogin: true, openAsHidden: true }]);
    const item = electron.trays[0]!.menu.find((i) => i.label === 'Start at login')!;
    assert.equal(item.checked, true);
    (item.click as (i: { checked: boolean }) => void)({ checked: false });
    assert.deepEqual(agent.calls, ['settings {"startAtLogin":false}']);
    assert.deepEqual(electron.loginItems.at(-1), { openAtLogin: false, openAsHidden: true });
  });
});
