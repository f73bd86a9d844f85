import type { Spooler } from '../transports/system/spooler.js';
import type { UsbBackend } from '../transports/usb/usb-device.js';
import { listUsbPrinters } from '../transports/usb/enumerate.js';
import {
  capabilitiesOf,
  classifyQueue,
  type PrinterKind,
  type PrinterLanguage,
} from './classify.js';
import type { SerialPortInfo } from './serial-ports.js';

/** A printer the agent found by itself, with the URI that reaches it. */
export interface DiscoveredPrinter {
  /** The suggested printer URI (`usb://04b8:0202/X`, `serial:/dev/ttyUSB0?baud=9600`, `system:Q`). */
  uri: string;
  name: string;
  connection: 'usb' | 'serial' | 'system';
  kind: PrinterKind;
  language: PrinterLanguage;
  /** Job types it takes, and `status` when it reports its state. */
  capabilities: string[];
  /** What to know before using it: access denied with the fix, an unknown baud rate. */
  note: string | null;
  /** The system's default queue. */
  isDefault: boolean;
}

/** Where printers are looked for; each source is optional so that tests pass doubles. */
export interface DiscoverySources {
  usb?: UsbBackend;
  serialPorts?: () => Promise<SerialPortInfo[]>;
  spooler?: Spooler;
}

export interface DiscoveryResult {
  printers: DiscoveredPrinter[];
  /** Sources that could not be asked (`usb: libusb is not available`), for logs and the CLI. */
  problems: string[];
}

function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}

/**
 * USB printers, serial ports and system queues, each with a suggested URI, kind and
 * capabilities (for `printwire-agent printers` and for reporting discovered printers to the
 * cloud). A source that fails is reported in `problems`; the others are still listed.
 */
export async function discoverPrinters(sources: DiscoverySources): Promise<DiscoveryResult> {
  const printers: DiscoveredPrinter[] = [];
  const problems: string[] = [];
  const attempt = async (what: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      problems.push(`${what}: ${(error as Error).message}`);
    }
  };
  const { usb, serialPorts, spooler } = sources;

  if (usb) {
    await attempt('usb', async () => {
      for (const p of await listUsbPrinters(usb)) {
        const kind: PrinterKind = p.language === 'escpos' ? 'receipt' : 'label';
        const name =
          [p.manufacturer, p.product].filter(Boolean).join(' ') ||
          `USB printer ${hex4(p.vendorId)}:${hex4(p.productId)}`;
        printers.push({
          uri: p.uri,
          name,
          connection: 'usb',
          kind,
          language: p.language,
          capabilities: capabilitiesOf(kind, p.language, p.reportsStatus),
          note: p.problem,
          isDefault: false,
        });
      }
    });
  }

  if (serialPorts) {
    await attempt('serial', async () => {
      for (const port of await serialPorts()) {
        printers.push({
          uri: `serial:${port.path}?baud=9600`,
          name: port.manufacturer
            ? `${port.manufacturer} serial port ${port.path}`
            : `Serial port ${port.path}`,
          connection: 'serial',
          kind: 'receipt',
          language: 'escpos',
          capabilities: capabilitiesOf('receipt', 'escpos', true),
          note: 'a serial port, not necessarily a printer: check the baud rate set on the printer (9600 is common, also 19200 and 38400)',
          isDefault: false,
        });
      }
    });
  }

  if (spooler) {
    await attempt('system', async () => {
      for (const queue of await spooler.listQueues()) {
        const { kind, language } = classifyQueue(queue);
        printers.push({
          uri: `system:${encodeURIComponent(queue.name)}${language === 'escpos' ? '' : `?lang=${language}`}`,
          name: queue.description || queue.name,
          connection: 'system',
          kind,
          language,
          capabilities: capabilitiesOf(kind, language, true),
          note: null,
          isDefault: queue.isDefault,
        });
      }
    });
  }

  return { printers, problems };
}

/** The printers as a table for the terminal: URI, kind, name and note. */
export function formatDiscovered(result: DiscoveryResult): string {
  if (result.printers.length === 0 && result.problems.length === 0) return 'No printers found.\n';
  const rows = result.printers.map((p) => [
    p.uri,
    p.kind + (p.isDefault ? ' (default)' : ''),
    p.name,
  ]);
  const widths = [0, 1].map((c) => Math.max(...rows.map((r) => r[c]!.length), c === 0 ? 3 : 4));
  const line = (r: string[]) => `${r[0]!.padEnd(widths[0]!)}  ${r[1]!.padEnd(widths[1]!)}  ${r[2]}`;
  const out = [line(['URI', 'KIND', 'NAME']), ...rows.map(line)];
  for (const p of result.printers) if (p.note) out.push(`  ${p.uri}: ${p.note}`);
  for (const problem of result.problems) out.push(`not searched: ${problem}`);
  return out.join('\n') + '\n';
}
