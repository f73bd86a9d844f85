import { PrintwireError } from '@printwire/shared/errors/index';
import type { PrinterReach } from '@printwire/shared/protocol/index';
import {
  isLabelDpi,
  labelSizeProblem,
  parseLabelSize,
  type LabelDpi,
} from '@printwire/shared/label-graphics/label-size';

/** The six codepages of the spec; the receipt engine knows their `ESC t` numbers. */
export const PRINTER_CODEPAGES = [
  'CP437',
  'CP850',
  'CP858',
  'CP1252',
  'CP866',
  'ISO-8859-15',
] as const;
export type PrinterCodepage = (typeof PRINTER_CODEPAGES)[number];

export type PrinterTarget =
  | { connection: 'tcp'; host: string; port: number }
  | { connection: 'serial'; path: string; baud: number; flow?: 'none' | 'rtscts' | 'xonxoff' }
  | { connection: 'usb'; vendorId: number; productId: number; serial: string | null }
  | { connection: 'system'; queue: string };

/** A printer as a `--printer` URI describes it (see the contract's "Printer URIs"). */
export interface PrinterSpec {
  target: PrinterTarget;
  name: string;
  alias: string | null;
  /** A receipt printer's paper (`paper=58mm|80mm`). */
  paper: '58mm' | '80mm' | null;
  /** A ZPL or EPL printer's label (`paper=4x6in`, `paper=100x150mm`), lower case. */
  labelSize: string | null;
  /** A ZPL or EPL printer's resolution (`dpi=203|300|600`). */
  dpi: LabelDpi | null;
  codepage: PrinterCodepage | null;
  language: 'escpos' | 'zpl' | 'epl';
  /** The URI written back in its canonical form (scheme lower case, default port shown). */
  uri: string;
  /** What identifies the physical printer: the URI without its options. */
  connectionKey: string;
}

/** The raw TCP port of network printers (JetDirect, "port 9100"). */
export const DEFAULT_TCP_PORT = 9100;
/** The serial speed used when `baud` is not given. */
export const DEFAULT_BAUD = 9600;

const QUERY_KEYS = new Set(['name', 'alias', 'paper', 'dpi', 'codepage', 'lang', 'baud', 'flow']);
const FLOW_CONTROLS = ['none', 'rtscts', 'xonxoff'] as const;
const MAX_URI_CHARS = 1024;

function invalid(uri: string, why: string): PrintwireError {
  return new PrintwireError('VALIDATION_FAILED', `printer URI '${uri}': ${why}`);
}

function decode(uri: string, value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw invalid(uri, `'${value}' is not valid percent-encoding`);
  }
}

function parseQuery(uri: string, query: string): Map<string, string> {
  const out = new Map<string, string>();
  if (query === '') return out;
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decode(uri, eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decode(uri, part.slice(eq + 1));
    if (!QUERY_KEYS.has(key)) throw invalid(uri, `unknown option '${key}'`);
    if (out.has(key)) throw invalid(uri, `option '${key}' is given twice`);
    out.set(key, value);
  }
  return out;
}

function parseTcp(uri: string, rest: string): PrinterTarget {
  let host: string;
  let portText: string | undefined;
  const hostPort = rest.replace(/\/$/, '');
  if (hostPort.includes('/')) throw invalid(uri, 'a tcp URI has no path');
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) throw invalid(uri, 'unclosed IPv6 address');
    host = hostPort.slice(1, close);
    const after = hostPort.slice(close + 1);
    if (after !== '' && !after.startsWith(':')) throw invalid(uri, 'expected :PORT after ]');
    portText = after === '' ? undefined : after.slice(1);
  } else {
    const colon = hostPort.lastIndexOf(':');
    host = colon < 0 ? hostPort : hostPort.slice(0, colon);
    portText = colon < 0 ? undefined : hostPort.slice(colon + 1);
  }
  if (host === '') throw invalid(uri, 'the host is missing');
  if (!/^[A-Za-z0-9.\-_:%]+$/.test(host)) throw invalid(uri, `'${host}' is not a host name`);
  let port = DEFAULT_TCP_PORT;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
      throw invalid(uri, `port must be 1-65535, got '${portText}'`);
    }
    port = Number(portText);
  }
  return { connection: 'tcp', host: host.toLowerCase(), port };
}

function parseUsb(uri: string, rest: string): PrinterTarget {
  const match = /^([0-9a-fA-F]{4}):([0-9a-fA-F]{4})(?:\/(.+))?$/.exec(rest);
  if (!match) throw invalid(uri, 'expected usb://VID:PID[/SERIAL] with 4 hex digits each');
  const serial = match[3] === undefined ? null : decode(uri, match[3]);
  return {
    connection: 'usb',
    vendorId: parseInt(match[1]!, 16),
    productId: parseInt(match[2]!, 16),
    serial,
  };
}

function parseBaud(uri: string, text: string | undefined): number {
  if (text === undefined) return DEFAULT_BAUD;
  const baud = Number(text);
  if (!/^\d+$/.test(text) || baud < 300 || baud > 4_000_000) {
    throw invalid(uri, `baud must be a number from 300 to 4000000, got '${text}'`);
  }
  return baud;
}

/** `flow=none|rtscts|xonxoff`: the serial line's flow control (absent: none). */
function parseFlow(
  uri: string,
  text: string | undefined,
): { flow?: (typeof FLOW_CONTROLS)[number] } {
  if (text === undefined) return {};
  const flow = FLOW_CONTROLS.find((f) => f === text.toLowerCase());
  if (!flow) throw invalid(uri, `flow must be none, rtscts or xonxoff, got '${text}'`);
  return { flow };
}

function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}

function canonical(target: PrinterTarget): string {
  switch (target.connection) {
    case 'tcp':
      return `tcp://${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
    case 'serial':
      return `serial:${encodeURI(target.path)}`;
    case 'usb':
      return `usb://${hex4(target.vendorId)}:${hex4(target.productId)}${
        target.serial === null ? '' : `/${encodeURIComponent(target.serial)}`
      }`;
    case 'system':
      return `system:${encodeURIComponent(target.queue)}`;
  }
}

/**
 * How the printer is reached, as the `printers` message reports it (so that the dashboard can
 * tell two printers of one model apart): the URI's target, with USB ids as four hex digits.
 */
export function reachOf(target: PrinterTarget): PrinterReach {
  switch (target.connection) {
    case 'tcp':
      return { via: 'tcp', host: target.host, port: target.port };
    case 'serial':
      return { via: 'serial', path: target.path, baud: target.baud };
    case 'usb':
      return {
        via: 'usb',
        vendorId: hex4(target.vendorId),
        productId: hex4(target.productId),
        serial: target.serial,
      };
    case 'system':
      return { via: 'system', queue: target.queue };
  }
}

function defaultName(target: PrinterTarget): string {
  switch (target.connection) {
    case 'tcp':
      return `${target.host}:${target.port}`;
    case 'serial':
      return target.path;
    case 'usb':
      return `USB ${hex4(target.vendorId)}:${hex4(target.productId)}`;
    case 'system':
      return target.queue;
  }
}

/** `paper` and `dpi`: a receipt printer's paper width, or a label printer's label and dots. */
function parsePaper(
  uri: string,
  lang: 'escpos' | 'zpl' | 'epl',
  query: Map<string, string>,
): Pick<PrinterSpec, 'paper' | 'labelSize' | 'dpi'> {
  const paper = query.get('paper');
  const dpiText = query.get('dpi');
  if (lang === 'escpos') {
    if (dpiText !== undefined) throw invalid(uri, 'dpi applies to zpl and epl printers only');
    if (paper !== undefined && paper !== '58mm' && paper !== '80mm') {
      throw invalid(
        uri,
        `paper must be 58mm or 80mm, got '${paper}' (a label size needs lang=zpl or lang=epl)`,
      );
    }
    return { paper: paper ?? null, labelSize: null, dpi: null };
  }
  const problem = paper === undefined ? null : labelSizeProblem(paper);
  if (problem) throw invalid(uri, `paper of a ${lang} printer: ${problem}`);
  const dpi = dpiText === undefined ? null : Number(dpiText);
  if (dpi !== null && !isLabelDpi(dpi)) {
    throw invalid(uri, `dpi must be 203, 300 or 600, got '${dpiText}'`);
  }
  return {
    paper: null,
    labelSize: paper === undefined ? null : parseLabelSize(paper).text,
    dpi,
  };
}

/**
 * Parses a printer URI: `tcp://HOST[:PORT]`, `serial:PATH?baud=N&flow=none|rtscts|xonxoff`, `usb://VID:PID[/SERIAL]` or
 * `system:QUEUE`, each with the options `name`, `alias`, `paper` (58mm|80mm; for a ZPL or EPL
 * printer its label, `4x6in` or `100x150mm`), `dpi` (203|300|600, label printers), `codepage`
 * and `lang` (escpos|zpl|epl, default escpos). Values are percent-decoded. Throws
 * `PrintwireError('VALIDATION_FAILED')` naming what is wrong.
 */
export function parsePrinterUri(uri: string): PrinterSpec {
  if (uri.length > MAX_URI_CHARS) throw invalid(uri.slice(0, 40) + '…', 'longer than 1024');
  const q = uri.indexOf('?');
  const head = q < 0 ? uri : uri.slice(0, q);
  const query = parseQuery(uri, q < 0 ? '' : uri.slice(q + 1));
  const colon = head.indexOf(':');
  if (colon < 0) throw invalid(uri, 'expected a scheme: tcp://, serial:, usb:// or system:');
  const scheme = head.slice(0, colon).toLowerCase();
  const rest = head.slice(colon + 1);
  let target: PrinterTarget;
  if (scheme === 'tcp' && rest.startsWith('//')) target = parseTcp(uri, rest.slice(2));
  else if (scheme === 'usb' && rest.startsWith('//')) target = parseUsb(uri, rest.slice(2));
  else if (scheme === 'serial' && rest !== '') {
    target = {
      connection: 'serial',
      path: decode(uri, rest),
      baud: parseBaud(uri, query.get('baud')),
      ...parseFlow(uri, query.get('flow')),
    };
  } else if (scheme === 'system' && rest !== '') {
    target = { connection: 'system', queue: decode(uri, rest) };
  } else if (['tcp', 'usb', 'serial', 'system'].includes(scheme)) {
    throw invalid(uri, `the ${scheme} address is missing`);
  } else throw invalid(uri, `unknown scheme '${scheme}'`);

  for (const key of ['baud', 'flow']) {
    if (query.has(key) && target.connection !== 'serial') {
      throw invalid(uri, `${key} applies to serial printers only`);
    }
  }
  const codepageText = query.get('codepage');
  const codepage = PRINTER_CODEPAGES.find((c) => c === codepageText?.toUpperCase()) ?? null;
  if (codepageText !== undefined && codepage === null) {
    throw invalid(uri, `codepage must be one of ${PRINTER_CODEPAGES.join(', ')}`);
  }
  const lang = query.get('lang') ?? 'escpos';
  if (lang !== 'escpos' && lang !== 'zpl' && lang !== 'epl') {
    throw invalid(uri, `lang must be escpos, zpl or epl, got '${lang}'`);
  }
  const { paper, labelSize, dpi } = parsePaper(uri, lang, query);
  const name = query.get('name') || defaultName(target);
  const alias = query.get('alias') || null;
  const connectionKey = canonical(target);
  const options = new URLSearchParams();
  if (target.connection === 'serial') {
    options.set('baud', String(target.baud));
    if (target.flow) options.set('flow', target.flow);
  }
  for (const key of ['name', 'alias', 'paper', 'dpi', 'codepage', 'lang'] as const) {
    const value =
      key === 'codepage' ? codepage : key === 'paper' ? (labelSize ?? paper) : query.get(key);
    if (value) options.set(key, value);
  }
  const optionText = options.toString();
  const canonicalUri = optionText === '' ? connectionKey : `${connectionKey}?${optionText}`;
  // The agent reports this URI to the cloud, whose field cap is the same 1024 characters.
  if (canonicalUri.length > MAX_URI_CHARS)
    throw invalid(uri.slice(0, 40) + '…', 'longer than 1024 once encoded');
  return {
    target,
    name,
    alias,
    paper,
    labelSize,
    dpi,
    codepage,
    language: lang,
    uri: canonicalUri,
    connectionKey,
  };
}
