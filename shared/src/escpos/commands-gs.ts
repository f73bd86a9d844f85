/** GS commands: each handler reads its parameters from the reader (the GS x is consumed). */
import { printBarcode } from './barcode/draw.js';
import type { Symbology } from './barcode/symbologies.js';
import type { Handler } from './commands-esc.js';
import { printStoredGraphics, rasterImage, storeGraphics } from './images.js';
import { printQr } from './qr.js';
import type { ByteReader } from './reader.js';
import type { HriPosition, QrErrorLevel } from './state.js';

/** Commands that print nothing and change nothing the preview shows: skipped by their length. */
export const GS_SILENT: Record<number, number> = {
  0x3a: 0, // GS :  start/end macro definition
  0x45: 1, // GS E  print density
  0x50: 2, // GS P  motion units (taken as 1 dot)
  0x54: 1, // GS T  print position to the beginning of the line
  0x5e: 3, // GS ^  execute macro
  0x61: 1, // GS a  automatic status back
  0x62: 1, // GS b  smoothing
  0x63: 0, // GS c  print counter
  0x6a: 1, // GS j  ink status back
};

/** Commands of features the preview does not draw: skipped by their length with a warning. */
export const GS_NOT_RENDERED: Record<number, [number, string]> = {
  0x24: [2, 'page mode vertical position (GS $)'],
  0x5c: [2, 'page mode relative vertical position (GS \\)'],
  0x2f: [1, 'downloaded bit images (GS /)'],
};

const SYMBOLOGIES: Record<number, Symbology> = {
  0: 'UPC-A',
  1: 'UPC-E',
  2: 'EAN13',
  3: 'EAN8',
  4: 'CODE39',
  5: 'ITF',
  6: 'CODABAR',
  65: 'UPC-A',
  66: 'UPC-E',
  67: 'EAN13',
  68: 'EAN8',
  69: 'CODE39',
  70: 'ITF',
  71: 'CODABAR',
  72: 'CODE93',
  73: 'CODE128',
};

const HRI: HriPosition[] = ['none', 'above', 'below', 'both'];
const QR_LEVELS: QrErrorLevel[] = ['L', 'M', 'Q', 'H'];
/** Longest NUL-terminated barcode data (GS k m = 0-6) a printer reads. */
const MAX_BARCODE_DATA = 255;

const zeroOr48 = (n: number) => (n >= 48 ? n - 48 : n);

function qr(r: ByteReader, p: Parameters<Handler>[1], body: Uint8Array): void {
  const fn = body[1];
  const arg = body[2];
  switch (fn) {
    case 65: // model: 49 model 1, 50 model 2, 51 micro QR
      if (arg !== undefined && arg !== 50) r.warn('QR model 1 and micro QR are drawn as model 2');
      return;
    case 67:
      if (arg !== undefined && arg >= 1 && arg <= 16) p.state.qr.moduleSize = arg;
      else r.warn(`QR module size ${arg} is not 1-16: ignored`);
      return;
    case 69: {
      const level = arg === undefined ? undefined : QR_LEVELS[arg - 48];
      if (level) p.state.qr.errorLevel = level;
      else r.warn(`QR error correction ${arg} is not 48-51: ignored`);
      return;
    }
    case 80:
      p.state.qr.data = Uint8Array.from(body.subarray(3));
      return;
    case 81:
      printQr(p, r.warnings);
      return;
    case 82: // transmit size information: answered by a printer
      p.statusRequests.push({ command: 'GS ( k QR size', offset: r.offset });
      return;
    default:
      r.warn(`GS ( k QR function ${fn} is not supported: skipped`);
  }
}

/** GS ( L / GS 8 L: raster graphics are stored (function 112) and printed (50); others skipped. */
function graphics(r: ByteReader, p: Parameters<Handler>[1], body: Uint8Array): void {
  const fn = body[1];
  if (fn === 112) return storeGraphics(r, p, body);
  if (fn === 50 || fn === 2) return printStoredGraphics(r, p);
  if (fn === 48 || fn === 49 || fn === 1) return; // density and capacity queries
  r.warn(`graphics function ${fn} (${r.command}) is not drawn: skipped`);
}

export const GS_HANDLERS: Record<number, Handler> = {
  // GS ! n: character size, width (high nibble) and height (low nibble) multipliers 1-8
  0x21: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    const w = ((n >> 4) & 0x07) + 1;
    const h = (n & 0x07) + 1;
    p.state.widthMul = w;
    p.state.heightMul = h;
  },
  // GS ( x pL pH d…: function groups; k is 2D symbols, others are skipped by their length
  0x28: (r, p) => {
    const head = r.take(3);
    if (!head) return;
    const [fn, pL, pH] = head as unknown as [number, number, number];
    const body = r.data(pL + pH * 256);
    if (fn === 0x4c) return graphics(r, p, body);
    if (fn !== 0x6b) return r.warn(`GS ( ${String.fromCharCode(fn)} is not drawn: skipped`);
    if (body[0] !== 49) {
      r.warn(`2D symbol ${body[0]} (GS ( k; PDF417, MaxiCode…) is not drawn: only QR codes are`);
      return;
    }
    qr(r, p, body);
  },
  // GS * x y d…: define downloaded bit image (x × y × 8 bytes)
  0x2a: (r) => {
    const b = r.take(2);
    if (!b) return;
    r.data(b[0]! * b[1]! * 8);
    r.warn('downloaded bit images (GS *) are not drawn');
  },
  0x42: (r, p) => {
    const n = r.byte();
    if (n !== undefined) p.state.invert = (n & 1) === 1;
  },
  0x48: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    const pos = HRI[zeroOr48(n)];
    if (pos) p.state.barcode.hri = pos;
    else r.warn(`GS H ${n} is not an HRI position: ignored`);
  },
  // GS I n, GS r n: printer ID and status, answered by a printer
  0x49: (r, p) => {
    if (r.byte() !== undefined) p.statusRequests.push({ command: 'GS I', offset: r.offset });
  },
  0x72: (r, p) => {
    if (r.byte() !== undefined) p.statusRequests.push({ command: 'GS r', offset: r.offset });
  },
  // GS L nL nH: left margin; GS W nL nH: print area width (both only at the start of a line)
  0x4c: (r, p) => {
    const b = r.take(2);
    if (!b) return;
    if (!p.atLineStart) return r.warn('GS L in the middle of a line is ignored');
    p.state.leftMargin = b[0]! + b[1]! * 256;
  },
  0x57: (r, p) => {
    const b = r.take(2);
    if (!b) return;
    if (!p.atLineStart) return r.warn('GS W in the middle of a line is ignored');
    p.state.areaWidth = b[0]! + b[1]! * 256;
  },
  // GS V m [n]: cut; 65/66 (and 97/98, 103/104) feed n dots first
  0x56: (r, p) => {
    const m = r.byte();
    if (m === undefined) return;
    if (m === 0 || m === 48) return p.cut('full');
    if (m === 1 || m === 49) return p.cut('partial');
    if ([65, 66, 97, 98, 103, 104].includes(m)) {
      const n = r.byte();
      if (n === undefined) return;
      if (!p.atLineStart) p.printLine();
      p.feed(n);
      p.cut(m % 2 === 1 ? 'full' : 'partial');
      return;
    }
    r.warn(`GS V ${m} is not a cut mode: skipped`);
  },
  0x66: (r, p) => {
    const n = r.byte();
    if (n !== undefined) p.state.barcode.hriFont = zeroOr48(n) === 0 ? 'A' : 'B';
  },
  0x68: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    if (n >= 1) p.state.barcode.height = n;
    else r.warn('GS h 0 is not a barcode height: ignored');
  },
  0x77: (r, p) => {
    const n = r.byte();
    if (n === undefined) return;
    if (n >= 1 && n <= 6) p.state.barcode.moduleWidth = n;
    else r.warn(`GS w ${n} is not a module width of 1-6: ignored`);
  },
  // GS k m d… NUL (m = 0-6) or GS k m n d1…dn (m = 65-73)
  0x6b: (r, p) => {
    const m = r.byte();
    if (m === undefined) return;
    const symbology = SYMBOLOGIES[m];
    if (!symbology) return r.warn(`GS k symbology ${m} is unknown: skipped`);
    let data: Uint8Array | undefined;
    if (m <= 6) {
      data = r.untilNul(MAX_BARCODE_DATA);
      if (!data) {
        r.warn(`GS k ${m} data has no closing NUL: barcode not printed`);
        return;
      }
    } else {
      const n = r.byte();
      if (n === undefined) return;
      data = r.data(n);
    }
    printBarcode(p, r.warnings, symbology, data);
  },
  // GS v 0 m xL xH yL yH d…: raster bit image
  0x76: (r, p) => {
    const sub = r.byte();
    if (sub === undefined) return;
    if (sub !== 0x30) return r.warn(`GS v ${sub} is unknown: skipped`);
    rasterImage(r, p);
  },
  // GS 8 L p1 p2 p3 p4 d…: graphics with a 32-bit length
  0x38: (r, p) => {
    const head = r.take(5);
    if (!head) return;
    if (head[0] !== 0x4c) return r.warn('GS 8 is unknown: skipped');
    const body = r.data(head[1]! + head[2]! * 0x100 + head[3]! * 0x10000 + head[4]! * 0x1000000);
    graphics(r, p, body);
  },
  // GS z 0 t1 t2, GS g 0/2 m nL nH: skipped by their length
  0x7a: (r) => void r.take(3),
  0x67: (r) => void r.take(4),
};
