/**
 * The public surface of @printwire/agent: the agent itself (what the CLI and, later, the
 * desktop app run) and the pieces drivers and tests build on.
 */
export {
  Agent,
  AGENT_VERSION,
  QUEUE_FILE,
  CACHE_PRUNE_INTERVAL_MS,
  DISCOVERY_TIMEOUT_MS,
  defaultRegistry,
  type AgentOptions,
} from './agent.js';
export { AgentRenderer, type AgentRendererOptions } from './render/agent-render.js';
export {
  discoverPrinters,
  formatDiscovered,
  type DiscoveredPrinter,
  type DiscoverySources,
  type DiscoveryResult,
} from './discovery/discover.js';
export { defaultDiscoverySources } from './discovery/default-sources.js';
export { autoPrinters, printerKind } from './discovery/printer-kind.js';
export {
  parsePrinterUri,
  PRINTER_CODEPAGES,
  DEFAULT_TCP_PORT,
  DEFAULT_BAUD,
  type PrinterSpec,
  type PrinterTarget,
  type PrinterCodepage,
} from './config/printer-uri.js';
export { resolveDataDir } from './config/data-dir.js';
export {
  loadConfig,
  saveConfig,
  setPrinters,
  configuredPrinters,
  readDeviceToken,
  writeDeviceToken,
  type AgentConfigFile,
  type ConfiguredPrinter,
} from './config/config-store.js';
export { systemClock, FakeClock, type Clock, type TimerHandle } from './core/clock.js';
export {
  PrinterWorker,
  RUNNER_DEFAULTS,
  retryDelayMs,
  type RunnerOptions,
  type RunnerEvents,
  type RenderFunction,
} from './core/printer-worker.js';
export { JobRunner } from './core/runner.js';
export {
  JobQueue,
  type JobQueueOptions,
  type QueuedJob,
  type QueuedJobState,
  type QueueSummary,
  type OutboxMessage,
  type ResultMessage,
  type CancelMessage,
  type AcceptOutcome,
} from './queue/job-queue.js';
export {
  renderJob,
  receiptDocumentOf,
  type RenderTarget,
  type ReceiptEncoder,
} from './render/render-job.js';
export { createSerialTransport, SERIAL_DEFAULTS } from './transports/serial/serial-transport.js';
export { createUsbTransport } from './transports/usb/create-usb-transport.js';
export { usbTransportFactory, USB_DEFAULTS } from './transports/usb/usb-transport.js';
export {
  createSystemTransport,
  systemTransportFactory,
  SYSTEM_DEFAULTS,
} from './transports/system/system-transport.js';
export { TransportRegistry } from './transports/registry.js';
export type {
  Transport,
  TransportFactory,
  TransportOptions,
  PrinterStatusReport,
} from './transports/transport.js';
export { decodeEscposStatus, isStatusByte, DLE_EOT_REQUEST } from './transports/escpos-status.js';
export { TcpTransport, createTcpTransport, TCP_DEFAULTS } from './transports/tcp/tcp-transport.js';
export { activate, cloudEndpoint, type Activation } from './cloud-link/activation.js';
export { CloudLink, type CloudLinkOptions, type LinkState } from './cloud-link/cloud-link.js';
export {
  busyDelayMs,
  reconnectDelayMs,
  seededRandom,
  RECONNECT_DEFAULTS,
} from './cloud-link/backoff.js';
export { createLogger, silentLogger, type AgentLogger } from './logs/logger.js';
export { exportLogs } from './logs/export.js';
export { WindowPrompts } from './window/prompts.js';
export { DEFAULT_LOCAL_SETTINGS } from './local-server/local-store.js';
export { MACOS_CREATE_USER } from './service/plan.js';
export { findBrowser } from './render/html.js';
export {
  pdfOnLabels,
  renderDocumentForLabel,
  type LabelDocumentOptions,
  type LabelPaper,
} from './render/label-documents.js';
