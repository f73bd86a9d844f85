/**
 * The ePOS-Print XML elements and attributes (Epson's ePOS-Print XML reference) as a TM printer
 * applies them, drawn on the virtual printer's print mechanism. `DOCUMENTED` lists every
 * attribute of the reference per element; what the preview does not draw is reported.
 */
import { printBarcode } from '../escpos/barcode/draw.js';
import type { Symbology } from '../escpos/barcode/symbologies.js';
import type { Printer } from '../escpos/printer.js';
import { printQr } from '../escpos/qr.js';
import type { WarningLog } from '../escpos/warnings.js';
import type { XmlElement } from './xml.js';

/** Elements of `<epos-print>` and their attributes, from Epson's reference. */
export const DOCUMENTED: Record<string, readonly string[]> = {
  text: [
    'lang',
    'smooth',
    'align',
    'font',
    'width',
    'height',
    'dw',
    'dh',
    'reverse',
    'ul',
    'em',
    'color',
    'x',
    'rotate',
    'linespc',
  ],
  feed: ['unit', 'line', 'linespc', 'pos'],
  cut: ['type'],
  pulse: ['drawer', 'time'],
  barcode: ['type', 'hri', 'font', 'width', 'height', 'align', 'rotate'],
  symbol: ['type', 'level', 'width', 'height', 'size', 'align', 'rotate'],
  image: ['width', 'height', 'color', 'mode', 'align'],
  logo: ['key1', 'key2', 'align'],
  sound: ['pattern', 'repeat', 'cycle'],
  hline: ['x1', 'x2', 'style'],
  vline: ['x', 'style'],
  page: [],
  layout: ['type', 'width', 'height', 'margin-top', 'margin-bottom', 'offset-cut', 'offset-label'],
  command: [],
  recovery: [],
};

const BARCODE_TYPES: Record<string, Symbology> = {
  upc_a: 'UPC-A',
  upc_e: 'UPC-E',
  ean13: 'EAN13',
  jan13: 'EAN13',
  ean8: 'EAN8',
  jan8: 'EAN8',
  code39: 'CODE39',
  itf: 'ITF',
  codabar: 'CODABAR',
  code93: 'CODE93',
  code128: 'CODE128',
};

const QR_LEVELS = { level_l: 'L', level_m: 'M', level_q: 'Q', level_h: 'H', default: 'M' } as const;
const ALIGNMENTS = ['left', 'center', 'right'] as const;

export interface EposContext {
  printer: Printer;
  warnings: WarningLog;
}

/** Text of an element (its character data, children ignored). */
function content(el: XmlElement): string {
  return el.children.filter((c): c is string => typeof c === 'string').join('');
}

function integer(
  ctx: EposContext,
  el: XmlElement,
  attr: string,
  min: number,
  max: number,
): number | undefined {
  const raw = el.attributes.get(attr);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (Number.isInteger(n) && n >= min && n <= max) return n;
  ctx.warnings.add(`<${el.name} ${attr}="${raw}"> is not an integer of ${min}-${max}: ignored`);
  return undefined;
}

function bool(ctx: EposContext, el: XmlElement, attr: string): boolean | undefined {
  const raw = el.attributes.get(attr);
  if (raw === undefined) return undefined;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  ctx.warnings.add(`<${el.name} ${attr}="${raw}"> is not true or false: ignored`);
  return undefined;
}

function alignment(ctx: EposContext, el: XmlElement): (typeof ALIGNMENTS)[number] | undefined {
  const raw = el.attributes.get('align');
  if (raw === undefined) return undefined;
  const a = ALIGNMENTS.find((x) => x === raw);
  if (a === undefined) ctx.warnings.add(`<${el.name} align="${raw}"> is not left, center or right`);
  return a;
}

/** `<text>`: its attributes set the style of what follows; its characters print. */
function text(ctx: EposContext, el: XmlElement): void {
  const { printer: p } = ctx;
  const s = p.state;
  const align = alignment(ctx, el);
  if (align) s.align = align;
  const font = el.attributes.get('font');
  if (font !== undefined) s.font = font === 'font_b' ? 'B' : 'A';
  s.widthMul = integer(ctx, el, 'width', 1, 8) ?? s.widthMul;
  s.heightMul = integer(ctx, el, 'height', 1, 8) ?? s.heightMul;
  const dw = bool(ctx, el, 'dw');
  if (dw !== undefined) s.widthMul = dw ? 2 : 1;
  const dh = bool(ctx, el, 'dh');
  if (dh !== undefined) s.heightMul = dh ? 2 : 1;
  s.emphasized = bool(ctx, el, 'em') ?? s.emphasized;
  const ul = bool(ctx, el, 'ul');
  if (ul !== undefined) s.underline = ul ? 1 : 0;
  s.invert = bool(ctx, el, 'reverse') ?? s.invert;
  const x = integer(ctx, el, 'x', 0, 65535);
  if (x !== undefined) p.moveTo(x);
  s.lineSpacing = integer(ctx, el, 'linespc', 0, 255) ?? s.lineSpacing;
  for (const char of content(el)) {
    if (char === '\n') p.printLine();
    else if (char === '\t') p.tab();
    else if (char !== '\r') p.printChar(char, 'UTF-8');
  }
}

function feed(ctx: EposContext, el: XmlElement): void {
  const p = ctx.printer;
  const line = integer(ctx, el, 'line', 0, 255);
  const unit = integer(ctx, el, 'unit', 0, 255);
  if (line !== undefined) p.printLine(line * p.state.lineSpacing);
  else if (unit !== undefined) p.printLine(unit);
  else if (!el.attributes.has('pos')) p.printLine();
}

function cut(ctx: EposContext, el: XmlElement): void {
  const type = el.attributes.get('type') ?? 'feed';
  if (
    !['feed', 'no_feed', 'reserve', 'feed_fullcut', 'no_feed_fullcut', 'reserve_fullcut'].includes(
      type,
    )
  ) {
    ctx.warnings.add(`<cut type="${type}"> is unknown: cut as "feed"`);
  }
  ctx.printer.cut(type.endsWith('fullcut') ? 'full' : 'partial');
}

function pulse(ctx: EposContext, el: XmlElement): void {
  const drawer = el.attributes.get('drawer') ?? 'drawer_1';
  const time = /^pulse_(\d+)$/.exec(el.attributes.get('time') ?? 'pulse_100');
  const ms = time ? Number(time[1]) : 100;
  ctx.printer.pulseDrawer(drawer === 'drawer_2' ? 5 : 2, ms, ms);
}

/** Graphics take the `align` of the element, else the text's alignment, for themselves only. */
function withAlign(ctx: EposContext, el: XmlElement, draw: () => void): void {
  const s = ctx.printer.state;
  const before = s.align;
  s.align = alignment(ctx, el) ?? before;
  if (!ctx.printer.atLineStart) ctx.printer.printLine();
  draw();
  s.align = before;
}

function barcode(ctx: EposContext, el: XmlElement): void {
  const type = el.attributes.get('type') ?? '';
  const symbology = BARCODE_TYPES[type];
  if (!symbology) return ctx.warnings.add(`<barcode type="${type}"> is not drawn: skipped`);
  const hri = el.attributes.get('hri') ?? 'none';
  const p = ctx.printer;
  p.state.barcode = {
    height: integer(ctx, el, 'height', 1, 255) ?? 162,
    moduleWidth: integer(ctx, el, 'width', 2, 6) ?? 3,
    hri: hri === 'above' || hri === 'below' || hri === 'both' ? hri : 'none',
    hriFont: el.attributes.get('font') === 'font_b' ? 'B' : 'A',
  };
  const data = Buffer.from(content(el), 'latin1');
  withAlign(ctx, el, () => printBarcode(p, ctx.warnings, symbology, data));
}

function symbol(ctx: EposContext, el: XmlElement): void {
  const type = el.attributes.get('type') ?? '';
  if (type !== 'qrcode_model_2' && type !== 'qrcode_model_1') {
    return ctx.warnings.add(`<symbol type="${type}"> is not drawn: skipped`);
  }
  const p = ctx.printer;
  const level = el.attributes.get('level') ?? 'default';
  const errorLevel = QR_LEVELS[level as keyof typeof QR_LEVELS];
  if (errorLevel === undefined)
    ctx.warnings.add(`<symbol level="${level}"> is unknown: level_m used`);
  p.state.qr = {
    moduleSize: integer(ctx, el, 'width', 1, 16) ?? 3,
    errorLevel: errorLevel ?? 'M',
    data: new Uint8Array(Buffer.from(content(el), 'utf8')),
  };
  withAlign(ctx, el, () => printQr(p, ctx.warnings));
}

function image(ctx: EposContext, el: XmlElement): void {
  const width = integer(ctx, el, 'width', 1, 65535);
  const height = integer(ctx, el, 'height', 1, 65535);
  if (width === undefined || height === undefined) {
    return ctx.warnings.add('<image> without width and height: skipped');
  }
  const mode = el.attributes.get('mode') ?? 'mono';
  if (mode !== 'mono') return ctx.warnings.add(`<image mode="${mode}"> is not drawn: skipped`);
  const data = Buffer.from(content(el).replace(/\s+/g, ''), 'base64');
  const rowBytes = Math.ceil(width / 8);
  if (data.length !== rowBytes * height) {
    ctx.warnings.add(
      `<image> of ${width} × ${height} dots carries ${data.length} bytes, not ${rowBytes * height}`,
    );
  }
  const p = ctx.printer;
  const drawWidth = Math.min(width, p.printArea().width);
  const bits = new Uint8Array(drawWidth * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < drawWidth; x++) {
      if (((data[y * rowBytes + (x >> 3)] ?? 0) << (x & 7)) & 0x80) bits[y * drawWidth + x] = 1;
    }
  }
  withAlign(ctx, el, () => p.printRaster(drawWidth, height, bits));
}

export const ELEMENT_HANDLERS: Record<string, (ctx: EposContext, el: XmlElement) => void> = {
  text,
  feed,
  cut,
  pulse,
  barcode,
  symbol,
  image,
};
