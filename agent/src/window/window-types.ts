/**
 * The window API's answers (agent/src/window/window-routes.ts), as plain types the window's web
 * app (agent/window/) imports too: no runtime code and no Node types here.
 */

import type { PrinterStatus } from '@printwire/shared/contracts/printer-status';

export type PrinterStatusWord = PrinterStatus;

export interface WindowState {
  tray: 'paused' | 'attention' | 'offline' | 'not-activated' | 'connected';
  cloud: 'connected' | 'offline' | 'not-activated';
  paused: boolean;
  attention: Array<{ agentPrinterId: string; name: string; status: PrinterStatusWord }>;
  agentVersion: string;
  deviceId: string | null;
  deviceName: string | null;
  organizationId: string | null;
  organizationName: string | null;
  cloudUrl: string | null;
  /** The trust prompt is answered in this window (the desktop app); false when headless. */
  canAsk: boolean;
}

export interface WindowPrinter {
  agentPrinterId: string;
  name: string;
  alias: string | null;
  uri: string;
  connection: string;
  kind: string;
  language: string;
  paper: string | null;
  codepage: string | null;
  status: PrinterStatusWord;
  isDefault: boolean;
  /** Given with --printer (removed from the configuration, not hidden). */
  configured: boolean;
}

export interface WindowPrinters {
  data: WindowPrinter[];
  hidden: Array<{ agentPrinterId: string; uri: string; name: string }>;
}

export interface WindowJob {
  id: string;
  agentPrinterId: string;
  type: string;
  state: 'queued' | 'printing' | 'printed' | 'failed' | 'cancelled';
  source: 'cloud' | 'local';
  attempt: number;
  maxAttempts: number;
  nextAttemptAt: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  receivedAt: number;
  updatedAt: number;
}

export interface WindowSettings {
  cloudUrl: string | null;
  localPort: number | null;
  localServerPort: number | null;
  startAtLogin: boolean;
  notificationsMuted: boolean;
  dataDir: string;
}

export interface WindowLogLine {
  time: number;
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  message: string;
  detail: string | null;
}

export interface WindowPrompt {
  id: string;
  origin: string;
  askedAt: number;
}

export interface WindowApiError {
  error: { code: string; message: string };
}
