import type { PrinterStatusReport } from './transport.js';

/** `DLE EOT n` for n = 1 (printer), 2 (offline cause), 3 (error cause), 4 (paper sensor). */
export const DLE_EOT_REQUEST = Uint8Array.from([
  0x10, 0x04, 0x01, 0x10, 0x04, 0x02, 0x10, 0x04, 0x03, 0x10, 0x04, 0x04,
]);

/** Every real-time status byte has bits 1 and 4 set and bits 0 and 7 clear. */
export function isStatusByte(byte: number): boolean {
  return (byte & 0x93) === 0x12;
}

/**
 * Decodes the four answers to `DLE EOT 1..4` (Epson semantics; most ESC/POS printers follow
 * them). Paper out and cover open are told apart from other errors. Pure.
 */
export function decodeEscposStatus(bytes: ArrayLike<number>): PrinterStatusReport {
  const [printer = 0x12, offline = 0x12, error = 0x12, paper = 0x12] = Array.from(bytes);
  const nearEnd = (paper & 0x0c) !== 0;
  if ((paper & 0x60) !== 0 || (offline & 0x20) !== 0) {
    return { status: 'paper_out', detail: 'paper out' };
  }
  if ((offline & 0x04) !== 0) return { status: 'cover_open', detail: 'cover open' };
  if ((error & 0x08) !== 0) return { status: 'error', detail: 'cutter error' };
  if ((error & 0x20) !== 0) return { status: 'error', detail: 'unrecoverable error' };
  if ((error & 0x40) !== 0)
    return { status: 'error', detail: 'overheated or other recoverable error' };
  if ((offline & 0x40) !== 0) return { status: 'error', detail: 'printer error' };
  if ((printer & 0x08) !== 0) return { status: 'error', detail: 'printer is offline' };
  return { status: 'online', detail: nearEnd ? 'paper near end' : null };
}
