import type { PrinterInfo, PrinterStatus } from '@printwire/shared/protocol/index';
import { PRINTER_NEEDS_ATTENTION } from '@printwire/shared/contracts/printer-status';

/** A printer whose status a person should hear of (paper out, cover open, offline, error). */
export interface PrinterAttention {
  agentPrinterId: string;
  name: string;
  status: PrinterStatus;
}

/**
 * The agent's state for the tray's colour and the window's header line, most urgent first:
 * `paused` (the person stopped printing), `attention` (a printer needs a hand), `offline` (no
 * link to the cloud; local printing goes on), `not-activated`, `connected`.
 */
export type TrayState = 'paused' | 'attention' | 'offline' | 'not-activated' | 'connected';

export interface AgentState {
  tray: TrayState;
  cloud: 'connected' | 'offline' | 'not-activated';
  paused: boolean;
  /** Printers that are not online (unknown counts as fine: a printer not yet asked). */
  attention: PrinterAttention[];
}

const NEEDS_ATTENTION = new Set<PrinterStatus>(PRINTER_NEEDS_ATTENTION);

/** Whether this status calls for a native notification. */
export function needsAttention(status: PrinterStatus): boolean {
  return NEEDS_ATTENTION.has(status);
}

export function agentState(input: {
  cloud: AgentState['cloud'];
  paused: boolean;
  printers: PrinterInfo[];
}): AgentState {
  const attention = input.printers
    .filter((p) => needsAttention(p.status))
    .map((p) => ({ agentPrinterId: p.agentPrinterId, name: p.alias ?? p.name, status: p.status }));
  const tray: TrayState = input.paused
    ? 'paused'
    : attention.length > 0
      ? 'attention'
      : input.cloud === 'connected'
        ? 'connected'
        : input.cloud;
  return { tray, cloud: input.cloud, paused: input.paused, attention };
}
