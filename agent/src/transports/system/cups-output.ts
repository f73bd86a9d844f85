/**
 * Parsers of the CUPS command-line tools' output (run in the C locale). Pure.
 */
import type { PrinterStatusReport } from '../transport.js';
import type { SpoolerQueue } from './spooler.js';

/** The job id from `lp`'s "request id is QUEUE-123 (1 file(s))". */
export function parseLpRequestId(stdout: string): string | null {
  return /request id is (\S+)/.exec(stdout)?.[1] ?? null;
}

/** One printer block of `lpstat -l -p`. */
interface LpstatPrinter {
  name: string;
  state: 'idle' | 'printing' | 'disabled';
  /** The lines under the header before the first "Key:" line: the reason a queue stopped. */
  message: string | null;
  alerts: string[];
  description: string | null;
}

/** Splits `lpstat -l -p` into printers. */
export function parseLpstatPrinters(stdout: string): LpstatPrinter[] {
  const printers: LpstatPrinter[] = [];
  let current: LpstatPrinter | null = null;
  let inHeader = false;
  for (const line of stdout.split('\n')) {
    const header = /^printer (\S+) (?:is (idle|printing)|(disabled))/.exec(line);
    if (header) {
      current = {
        name: header[1]!,
        state: (header[2] ?? header[3]) as LpstatPrinter['state'],
        message: null,
        alerts: [],
        description: null,
      };
      printers.push(current);
      inHeader = true;
      continue;
    }
    if (!current) continue;
    const field = /^\s+(Alerts|Description):\s?(.*)$/.exec(line);
    if (field) {
      inHeader = false;
      if (field[1] === 'Alerts') {
        current.alerts = field[2]!.split(/\s+/).filter((a) => a !== '' && a !== 'none');
      } else current.description = field[2]!.trim() || null;
      continue;
    }
    if (/^\s+\w[\w ]*:/.test(line)) inHeader = false;
    else if (inHeader && line.trim() !== '') {
      current.message = current.message ? `${current.message}; ${line.trim()}` : line.trim();
    }
  }
  return printers;
}

/** Printer-state-reasons (the Alerts line) that say what is wrong, in order of precedence. */
const REASONS: Array<[RegExp, PrinterStatusReport]> = [
  [/^media-empty|^media-needed/, { status: 'paper_out', detail: 'paper out' }],
  [/^(door|cover)-open/, { status: 'cover_open', detail: 'cover open' }],
  [/^offline-report|^connecting-to-device/, { status: 'offline', detail: 'printer is offline' }],
  [/^media-jam/, { status: 'error', detail: 'paper jam' }],
  [/-error$/, { status: 'error', detail: 'printer error' }],
];

/**
 * A queue's status from its `lpstat -l -p` block and whether it accepts jobs (`lpstat -a`):
 * a disabled (stopped) queue is offline, a queue rejecting jobs is in error, and the alerts
 * (printer-state-reasons) name paper out, cover open and other faults.
 */
export function cupsQueueStatus(printer: LpstatPrinter, accepting: boolean): PrinterStatusReport {
  for (const [pattern, report] of REASONS) {
    const reason = printer.alerts.find((a) => pattern.test(a));
    if (reason) return { ...report, detail: `${report.detail} (${reason})` };
  }
  if (printer.state === 'disabled') {
    return {
      status: 'offline',
      detail: `queue is stopped${printer.message ? `: ${printer.message}` : ''}`,
    };
  }
  if (!accepting) return { status: 'error', detail: 'queue is rejecting jobs' };
  const nearEnd = printer.alerts.find((a) => /^media-low|^marker-supply-low/.test(a));
  return { status: 'online', detail: nearEnd ? `supplies low (${nearEnd})` : null };
}

/** Whether `lpstat -a QUEUE` says the queue accepts requests. */
export function parseAccepting(stdout: string, queue: string): boolean {
  return stdout.split('\n').some((line) => line.startsWith(`${queue} accepting requests`));
}

/** Queues from `lpstat -l -p`, `lpstat -v` and `lpstat -d`. */
export function parseCupsQueues(
  printers: string,
  devices: string,
  defaultDest: string,
): SpoolerQueue[] {
  const defaultName = /system default destination: (\S+)/.exec(defaultDest)?.[1] ?? null;
  const deviceOf = new Map<string, string>();
  for (const match of devices.matchAll(/^device for (\S+): (.+)$/gm)) {
    deviceOf.set(match[1]!, match[2]!.trim());
  }
  return parseLpstatPrinters(printers).map((p) => ({
    name: p.name,
    description: p.description,
    isDefault: p.name === defaultName,
    device: deviceOf.get(p.name) ?? null,
  }));
}
