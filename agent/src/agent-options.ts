import { readFileSync } from 'node:fs';
import type { Clock } from './core/clock.js';
import type { RenderFunction, RunnerOptions } from './core/printer-worker.js';
import type { CloudLinkOptions } from './cloud-link/cloud-link.js';
import type { DiscoverySources } from './discovery/discover.js';
import type { LocalModeOptions } from './local-server/local-mode.js';
import type { AgentLogger } from './logs/logger.js';
import type { AgentRenderer } from './render/agent-render.js';
import { TransportRegistry } from './transports/registry.js';
import { createSerialTransport } from './transports/serial/serial-transport.js';
import { createSystemTransport } from './transports/system/system-transport.js';
import { createTcpTransport } from './transports/tcp/tcp-transport.js';
import { createUsbTransport } from './transports/usb/create-usb-transport.js';

/** The agent's version, from its package.json. */
export const AGENT_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

export const QUEUE_FILE = 'queue.db';
/** The window's per-launch key while the local server runs (mode 0600; `printwire-agent window`). */
export const WINDOW_KEY_FILE = 'window-key';

/** Longest wait for a discovery pass; the agent goes on without what it has not found by then. */
export const DISCOVERY_TIMEOUT_MS = 5000;

/** How often downloads older than the cache's lifetime (24 h) are removed, in ms. */
export const CACHE_PRUNE_INTERVAL_MS = 60 * 60_000;

export interface AgentOptions {
  dataDir: string;
  /** `--cloud`; remembered in config.json. */
  cloudUrl?: string;
  /** `--activation-code`: used when the agent has no device token yet. */
  activationCode?: string;
  /** `--printer` URIs: when given, the configured printers become exactly these. */
  printers?: string[];
  /** The device name shown in the dashboard; default the host name. */
  deviceName?: string;
  clock?: Clock;
  random?: () => number;
  logger?: AgentLogger;
  /** Transports by URI scheme; default `defaultRegistry()` (tcp, serial, usb, system). */
  registry?: TransportRegistry;
  runner?: RunnerOptions;
  /** Job → printer bytes; default `renderer.render` (see `RenderFunction`). */
  render?: RenderFunction;
  /**
   * Downloads, the browser for HTML jobs and the receipt engine; default an `AgentRenderer`
   * on the data dir (production when NODE_ENV=production). Closed by `stop`.
   */
  renderer?: AgentRenderer;
  /**
   * Where printers are looked for at `open` and then every `discoveryIntervalMs` (the CLI passes
   * `defaultDiscoverySources()`); none by default. Discovered printers give configured ones their
   * kind and capabilities, and the USB printers and system queues found are used and reported
   * beside the configured ones (unless hidden).
   */
  discovery?: DiscoverySources;
  /** Between discovery passes while running, in ms; default 30 s; 0: only at `open`. */
  discoveryIntervalMs?: number;
  /** What a committed job survives; default `power-loss` (see `JobQueueOptions`). */
  durability?: 'power-loss' | 'process';
  link?: Pick<CloudLinkOptions, 'reconnect' | 'handshakeTimeoutMs'>;
  /**
   * The local server for the browser SDK (docs/local-mode.md), started by `start`; none when
   * absent (the CLI passes it unless --no-local-server).
   */
  localServer?: LocalModeOptions;
}

/** The Settings page's values. */
export interface AgentSettings {
  cloudUrl: string | null;
  /** The port asked for (null: the first free of 21910-21913). */
  localPort: number | null;
  /** The port the local server listens on now (null: off). */
  localServerPort: number | null;
  startAtLogin: boolean;
  notificationsMuted: boolean;
  dataDir: string;
}

export type SettingsChange = Partial<
  Pick<AgentSettings, 'cloudUrl' | 'localPort' | 'startAtLogin' | 'notificationsMuted'>
>;

/** The transports this agent version has. */
export function defaultRegistry(): TransportRegistry {
  return new TransportRegistry()
    .register('tcp', createTcpTransport)
    .register('serial', createSerialTransport)
    .register('usb', createUsbTransport)
    .register('system', createSystemTransport);
}
