/**
 * What a polling printer's status says, as a printer status of ours (online, paper_out,
 * cover_open, offline): Star's `statusCode` and ASB bytes (CloudPRNT), Epson's status bits (SDP).
 * Paper end and cover open win over the offline bit that printers set beside them; a poll that
 * reports nothing else means online. Pure functions, written from the vendors' documents
 * (../shared/research/printer-pull-protocols.md §1.11, §1.12, §2.8).
 */

export type PolledStatus = 'online' | 'paper_out' | 'cover_open' | 'offline';

/** Decodes `200%20OK`, `200+OK` and `200 OK` alike; the leading digits are what counts. */
export function decodeStarCode(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  let text = raw.replace(/\+/g, ' ');
  try {
    text = decodeURIComponent(text);
  } catch {
    // Not percent-encoded after all: keep it as sent.
  }
  return text.trim();
}

/** The ASB bytes of a CloudPRNT `status` (`"23 86 00 …"` or `"23 6 0 0 "`): hex of any width. */
export function parseAsb(raw: unknown): number[] | undefined {
  if (typeof raw !== 'string') return undefined;
  const tokens = raw.trim().split(/\s+/).filter(Boolean);
  if (tokens.length < 6) return undefined;
  const bytes = tokens.map((t) => Number.parseInt(t, 16));
  return bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255) ? bytes : undefined;
}

/**
 * A CloudPRNT poll's status. ASB byte 3: bit 3 offline, bit 5 cover open; byte 6: bit 3 paper
 * end. Without ASB, statusCode 41x means paper, 42x cover, any other 4xx an offline printer;
 * 2xx (and 5xx, which are about a job's data) online.
 */
export function starStatus(statusCode: unknown, asb: unknown): PolledStatus {
  const bytes = parseAsb(asb);
  const code = decodeStarCode(statusCode);
  if (bytes) {
    const [, , b3 = 0, , , b6 = 0] = bytes;
    if (b6 & 0b1000) return 'paper_out';
    if (b3 & 0b10_0000) return 'cover_open';
    if (b3 & 0b1000) return 'offline';
  }
  if (/^41\d/.test(code)) return 'paper_out';
  if (/^42\d/.test(code)) return 'cover_open';
  if (/^4\d\d/.test(code)) return 'offline';
  return 'online';
}

/** Epson status bits (ePOS-Print `<response status>`, SDP `asbstatus`). */
export const EPSON_BITS = {
  NO_RESPONSE: 0x0000_0001,
  OFFLINE: 0x0000_0008,
  COVER_OPEN: 0x0000_0020,
  PAPER_END: 0x0008_0000,
} as const;

/** Reads a decimal (`251658262`) or hex (`0x0F00003C`) status; undefined when it is neither. */
export function parseEpsonStatus(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const text = raw.trim();
  const value = /^0x[0-9a-f]+$/i.test(text)
    ? Number.parseInt(text.slice(2), 16)
    : /^\d+$/.test(text)
      ? Number(text)
      : Number.NaN;
  return Number.isSafeInteger(value) ? value : undefined;
}

export function epsonStatus(bits: number): PolledStatus {
  if (bits & EPSON_BITS.PAPER_END) return 'paper_out';
  if (bits & EPSON_BITS.COVER_OPEN) return 'cover_open';
  if (bits & (EPSON_BITS.OFFLINE | EPSON_BITS.NO_RESPONSE)) return 'offline';
  return 'online';
}

/** A CloudPRNT result code in words (a failed job's errorMessage). */
export function starCodeInWords(code: string): string {
  const digits = /^\d{3,4}/.exec(code)?.[0] ?? '';
  const known: Record<string, string> = {
    '410': 'out of paper',
    '411': 'paper jam',
    '412': 'paper roll position error',
    '420': 'cover open',
    '510': 'the printer cannot print this media type',
    '511': 'the printer could not decode the job',
    '512': 'the printer does not support this media version',
    '520': 'the job download timed out',
    '521': 'the job is too large for the printer',
  };
  const words =
    known[digits] ??
    (digits.startsWith('4')
      ? 'the printer reported an error'
      : digits.startsWith('5')
        ? 'the printer could not handle the job'
        : 'the printer reported a failure');
  return `CloudPRNT code ${code || '(none)'}: ${words}`;
}

/** An ePOS-Print `<response code>` in words. */
export function epsonCodeInWords(code: string): string {
  const known: Record<string, string> = {
    EPTR_AUTOMATICAL: 'an automatically recoverable error occurred',
    EPTR_BATTERY_LOW: 'the battery is low',
    EPTR_COVER_OPEN: 'the cover is open',
    EPTR_CUTTER: 'the auto-cutter failed',
    EPTR_MECHANICAL: 'a mechanical error occurred',
    EPTR_REC_EMPTY: 'out of paper',
    EPTR_UNRECOVERABLE: 'an unrecoverable error occurred',
    SchemaError: 'the printer could not read the print request',
    DeviceNotFound: 'no device with that device ID (set it to local_printer)',
    PrintSystemError: 'the printer’s print system failed',
    EX_BADPORT: 'the printer’s port failed',
    EX_TIMEOUT: 'the print timed out',
    EX_SPOOLER: 'the printer’s queue is full',
    EX_DEVICE_BUSY: 'the printer is busy',
    EX_ENPC_TIMEOUT: 'the printer did not answer in time',
  };
  return `Epson code ${code || '(none)'}: ${known[code] ?? 'the printer reported a failure'}`;
}
