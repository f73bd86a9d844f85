/**
 * The second pass: one ZPL label drawn. A state machine over the label's commands: settings
 * (^LH ^FW ^CF ^BY ^CI ^MU ^LR ^LS ^LT ^PO ^PW ^LL) change the state, field commands (^FO ^FT ^A
 * ^FB ^FH ^FR ^FN ^SN, a barcode or graphic command, ^FD/^FV) fill the field in progress, and ^FS
 * ends it. Fields are drawn at ^XZ, once the ^FN values of a recalled format are all known.
 */
import { Bitmap, rotatePoint, TooLargeError, type Orientation } from '../bitmap.js';
import { BarcodeDataError } from '../barcodes.js';
import { drawText, type FontRequest, type TextBitmap } from '../fonts.js';
import { applyGlyphMap, glyphMap, type GlyphMap } from '../national.js';
import { drawBox, drawDiagonal, drawEllipse } from '../shapes.js';
import { decodeField, drawBlock, zplCharset, type FieldBlock } from '../text.js';
import { drawZplBarcode, ZPL_BARCODES } from './barcodes.js';
import { decodeGf } from './graphics.js';
import { splitParams } from './parse.js';
import { objectName, unitDots, type ZplBlock } from './plan.js';

export interface ZplDrawContext {
  dpmm: number;
  width: number;
  height: number;
  graphics: Map<string, Bitmap>;
  /** The content came as bytes: field data goes through the ^CI character set. */
  fromBytes: boolean;
}

export interface DrawnLabel {
  bitmap: Bitmap;
  skipped: string[];
  warnings: string[];
}

type FieldKind =
  | { type: 'text' }
  | { type: 'barcode'; command: string; params: string[] }
  | { type: 'picture'; bitmap: Bitmap }
  | { type: 'symbol'; params: string[] };

interface Field {
  x: number;
  y: number;
  positioned: boolean;
  baseline: boolean;
  /** ^FO/^FT's third parameter 1: the field ends at x (right-justified) instead of starting there. */
  right?: boolean;
  font?: AssignedFont & { orientation?: Orientation };
  block?: FieldBlock;
  hex?: string;
  reverse: boolean;
  kind: FieldKind;
  data?: string;
  fn?: number;
  serial?: { step: number; pad: boolean };
  orientation: Orientation;
  charset: string;
  /** ^CI 0-13's national swaps and remapping pairs, for text. */
  glyphs?: GlyphMap;
  module: number;
  ratio: number;
  barHeight: number;
}

/**
 * For measuring the renderer against reference pictures (`bench/font0-fit.ts`): when set, called
 * with each upright, unjustified line of font 0 and the dot of the label where its bitmap's top
 * left goes.
 */
export const textProbe: {
  line?: (line: { x: number; y: number; font: FontRequest; drawn: TextBitmap }) => void;
} = {};

/** A font request, and the font file ^CW assigned to its letter when it has one. */
type AssignedFont = FontRequest & { assigned?: string };

/** Settings that change how the printer runs, not what the label looks like: accepted silently. */
const NOT_DRAWN = new Set(
  (
    '^MM ^MN ^MT ^MD ^PR ~SD ~TA ~JS ^JU ^JZ ~JC ~JD ~JE ^PF ^PP ^PH ~PH ^CC ~CC ^CT ~CT ^CD ~CD ' +
    '^FX ^SZ ^JM ^KD ^KL ^KN ^KP ^MF ^ML ^MP ^MW ^NC ^NI ^SC ^SE ^SO ^ST ^SX ^TO ~HS ~HI ~HM ' +
    '~WC ^HH ^HW ^HG ^HT ~HQ ^ID ^IS ^XB ^PQ ^FC ^MC ^MA ^JJ ^JW ~JR ~RO ^XS ^FP ^DF ^XF ~DG ~DY ' +
    // ^CV checks barcode data as it prints (draws nothing), ^DN aborts a download.
    '^CV ^DN'
  ).split(' '),
);

/** Which parameter of a linear barcode command is its height. */
const HEIGHT_PARAM: Record<string, number> = Object.fromEntries([
  ...'BC BE B8 BU B9 BA B2 BI BJ BL BS BZ B5'.split(' ').map((c) => [c, 1]),
  ...'B3 BK B1 BM BP'.split(' ').map((c) => [c, 2]),
]);

const ORIENTATIONS = new Set(['N', 'R', 'I', 'B']);
const orientationOf = (v: string | undefined, fallback: Orientation): Orientation => {
  const o = (v ?? '').trim().toUpperCase();
  return ORIENTATIONS.has(o) ? (o as Orientation) : fallback;
};

/** Adds `step × copy` to the last run of digits in the value (^SN), keeping its width when padded. */
export function serialValue(value: string, step: number, copy: number, pad: boolean): string {
  const m = /(\d+)(\D*)$/.exec(value);
  if (!m) return value;
  const digits = m[1]!;
  const next = Math.max(0, Number(digits) + step * copy);
  const text = pad ? String(next).padStart(digits.length, '0') : String(next);
  return value.slice(0, m.index) + text + m[2];
}

export function drawZplLabel(block: ZplBlock, copy: number, ctx: ZplDrawContext): DrawnLabel {
  const skipped: string[] = [];
  const warnings: string[] = [];
  const fields: Field[] = [];
  const startHome = splitParams(block.home ?? '');
  let home = { x: Number(startHome[0]) || 0, y: Number(startHome[1]) || 0 };
  let shift = { x: 0, y: 0 };
  let fw: Orientation = 'N';
  let defaultFont: AssignedFont = { name: 'A', height: 9, width: 5 };
  // ^CW: letters given a font file (from earlier formats too). We have none of those files, so a
  // letter given one is drawn in font 0, with a warning naming the file.
  const assignedFonts = new Map(block.fonts ?? []);
  const resolveFont = (letter: string): { name: string; assigned?: string } => {
    const file = assignedFonts.get(letter);
    return file === undefined ? { name: letter } : { name: '0', assigned: `${letter},${file}` };
  };
  let by = { module: 2, ratio: 3, height: 10 };
  let ci = 0;
  let glyphs: GlyphMap | undefined;
  let unit = 1; // dots per ^MU unit
  let reverseAll = false;
  let invert = false;
  let mirror = false;
  let field: Field | undefined;

  const newField = (): Field => ({
    x: field?.x ?? 0,
    y: field?.y ?? 0,
    positioned: false,
    baseline: false,
    reverse: reverseAll,
    kind: { type: 'text' },
    orientation: fw,
    charset: zplCharset(ci),
    ...(glyphs ? { glyphs } : {}),
    module: by.module,
    ratio: by.ratio,
    barHeight: by.height,
  });
  const current = () => (field ??= newField());
  const dots = (v: string | undefined, fallback = 0) => {
    const n = Number(v);
    return v === undefined || v.trim() === '' || !Number.isFinite(n)
      ? fallback
      : Math.round(n * unit);
  };

  for (const { name, params } of block.commands) {
    try {
      command(name, params);
    } catch (error) {
      if (!(error instanceof TooLargeError)) throw error;
      warnings.push(`${name} not drawn: ${error.message}`);
    }
  }
  function command(name: string, params: string): void {
    const p = splitParams(params);
    const code = name.slice(1);
    if (name.startsWith('^A')) {
      const f = current();
      const resolved = code[1] === '@' ? { name: '0' } : resolveFont(code[1] ?? '0');
      const fontName = resolved.name;
      const height = dots(p[1], defaultFont.height);
      f.font = {
        ...resolved,
        height,
        width: dots(p[2], /[0-9]/.test(fontName) || fontName === '0' ? height : 0),
        orientation: orientationOf(p[0], fw),
      };
      return;
    }
    if (name[0] === '^' && ZPL_BARCODES.has(code)) {
      const f = current();
      // A linear barcode's height is in the format's units (^MUM: ^BCN,15 is 15 mm).
      const at = HEIGHT_PARAM[code];
      if (at !== undefined && unit !== 1 && p[at]) p[at] = String(dots(p[at]));
      f.kind = { type: 'barcode', command: code, params: p };
      // ^BY in force when the barcode command comes (it may follow the field's ^FO).
      f.module = by.module;
      f.ratio = by.ratio;
      f.barHeight = by.height;
      f.orientation = orientationOf(p[0], fw);
      if (code === 'BQ' || code === 'BD') f.orientation = code === 'BQ' ? 'N' : 'N';
      return;
    }
    switch (name) {
      case '^FO':
      case '^FT': {
        if (field && field.kind.type !== 'text') finish();
        const f = current();
        f.x = dots(p[0]) + home.x - shift.x;
        f.y = dots(p[1]) + home.y + shift.y;
        f.positioned = true;
        f.baseline = name === '^FT';
        f.right = p[2] === '1';
        break;
      }
      case '^FD':
      case '^FV':
        current().data = params;
        break;
      case '^FS':
        finish();
        break;
      case '^FH':
        current().hex = params[0] ?? '_';
        break;
      case '^FR':
        current().reverse = !reverseAll;
        break;
      case '^FN': {
        const n = Number(p[0]);
        if (Number.isFinite(n)) current().fn = n;
        break;
      }
      case '^SN': {
        const f = current();
        f.data = p[0] ?? '';
        f.serial = { step: Number(p[1]) || 1, pad: (p[2] ?? 'N').toUpperCase() === 'Y' };
        break;
      }
      case '^TB': {
        // A text block: as many lines as its height holds, wrapped, left-justified.
        const f = current();
        f.orientation = orientationOf(p[0], fw);
        if (f.font) f.font.orientation = f.orientation;
        f.block = {
          width: dots(p[1], 0),
          lines: 9999,
          spacing: 0,
          justify: 'L',
          indent: 0,
          height: dots(p[2], 0),
        };
        break;
      }
      case '^FB':
        current().block = {
          width: dots(p[0], 0),
          lines: Math.max(1, Number(p[1]) || 1),
          spacing: dots(p[2], 0),
          justify: (p[3] || 'L').toUpperCase(),
          indent: dots(p[4], 0),
        };
        break;
      case '^FW':
        fw = orientationOf(p[0], fw);
        // Inside a text field (after its ^A), Labelary turns that field too: ^A0N…^FWB draws B.
        if (field && p[0]?.trim() && field.kind.type === 'text') {
          field.orientation = fw;
          if (field.font) field.font.orientation = fw;
        }
        break;
      case '^CF': {
        const letter = p[0]?.toUpperCase();
        const resolved = letter
          ? resolveFont(letter)
          : {
              name: defaultFont.name,
              ...(defaultFont.assigned !== undefined ? { assigned: defaultFont.assigned } : {}),
            };
        const fontName = resolved.name;
        const height = dots(p[1], defaultFont.height);
        const width = dots(
          p[2],
          p[1] && (fontName === '0' || /[0-9]/.test(fontName))
            ? height
            : p[1]
              ? 0
              : defaultFont.width,
        );
        defaultFont = { ...resolved, height, width };
        break;
      }
      case '^CW': {
        const letter = (p[0] ?? '').toUpperCase();
        const file = p.slice(1).join(',').trim();
        if (!/^[A-Z0-9]$/.test(letter) || !file) {
          note(
            warnings,
            `^CW${params}: not applied (^CW takes a letter or digit and a font name, ^CWW,E:ARIAL.TTF)`,
          );
        } else assignedFonts.set(letter, file);
        break;
      }
      case '^BY':
        by = {
          // ^BY's module width is in the format's units too (^MUM: ^BY0.35 is 0.35 mm, 3 dots).
          module: Math.max(1, dots(p[0], by.module) || by.module),
          ratio: Math.min(3, Math.max(2, Number(p[1]) || by.ratio)),
          height: dots(p[2], by.height),
        };
        break;
      case '^CI':
        ci = Number(p[0]) || 0;
        glyphs = glyphMap(p);
        if (glyphs?.warning && !warnings.includes(glyphs.warning)) warnings.push(glyphs.warning);
        break;
      case '^MU':
        unit = unitDots(params, ctx.dpmm);
        break;
      case '^LH':
        home = { x: dots(p[0]), y: dots(p[1]) };
        break;
      case '^LS':
        shift = { ...shift, x: Number(p[0]) || 0 };
        break;
      case '^LT':
        shift = { ...shift, y: Number(p[0]) || 0 };
        break;
      case '^LR':
        reverseAll = (p[0] ?? '').toUpperCase() === 'Y';
        break;
      case '^PO':
        invert = (p[0] ?? '').toUpperCase() === 'I';
        break;
      case '^PM':
        mirror = (p[0] ?? '').toUpperCase() === 'Y';
        break;
      case '^PW':
      case '^LL':
        break; // sizes are read by the plan
      case '^GB': {
        const t = dots(p[2], 1);
        current().kind = {
          type: 'picture',
          bitmap: drawBox(dots(p[0], t), dots(p[1], t), t, Number(p[4]) || 0),
        };
        if ((p[3] ?? '').toUpperCase() === 'W') whiten();
        break;
      }
      case '^GC': {
        const d = dots(p[0], 3);
        current().kind = { type: 'picture', bitmap: drawEllipse(d, d, dots(p[1], 1)) };
        if ((p[2] ?? '').toUpperCase() === 'W') whiten();
        break;
      }
      case '^GE': {
        const t = dots(p[2], 1);
        current().kind = { type: 'picture', bitmap: drawEllipse(dots(p[0], t), dots(p[1], t), t) };
        if ((p[3] ?? '').toUpperCase() === 'W') whiten();
        break;
      }
      case '^GD': {
        const t = dots(p[2], 1);
        current().kind = {
          type: 'picture',
          bitmap: drawDiagonal(dots(p[0], t), dots(p[1], t), t, (p[4] || 'R').toUpperCase()),
        };
        if ((p[3] ?? '').toUpperCase() === 'W') whiten();
        break;
      }
      case '^GF': {
        const rest = params.split(',');
        const data = rest.slice(4).join(',');
        const format = (p[0] || 'A').toUpperCase();
        const count = Number(p[1]);
        if ((format === 'B' || format === 'C') && count > data.length) {
          // The parse ended the bytes at ^FS (the count ran past ^XZ or the content's end).
          const f = current();
          warnings.push(
            `^GF${format} field at ${f.x},${f.y}: ${count} bytes announced, ${data.length} found before ^FS; the graphic is drawn shorter than its byte count (a printer would wait for the ${count - data.length} missing bytes and print nothing)`,
          );
        }
        const decoded = decodeGf(format, Number(p[1]), Number(p[2]), Number(p[3]), data);
        if (!decoded) {
          note(skipped, format === 'C' ? '^GF (format C)' : '^GF');
          break;
        }
        if (decoded.warning) warnings.push(decoded.warning);
        current().kind = { type: 'picture', bitmap: decoded.bitmap };
        break;
      }
      case '^GS': {
        const f = current();
        f.kind = { type: 'symbol', params: p };
        f.orientation = orientationOf(p[0], fw);
        break;
      }
      case '^XG': {
        const stored = ctx.graphics.get(objectName(p[0] ?? ''));
        if (!stored) {
          warnings.push(`^XG ${p[0]}: no such graphic`);
          break;
        }
        current().kind = {
          type: 'picture',
          bitmap: stored.magnify(Number(p[1]) || 1, Number(p[2]) || 1),
        };
        break;
      }
      case '^IL': {
        const stored = ctx.graphics.get(objectName(p[0] ?? ''));
        if (stored)
          fields.push({
            ...newField(),
            x: 0,
            y: 0,
            positioned: true,
            kind: { type: 'picture', bitmap: stored },
          });
        else warnings.push(`^IL ${p[0]}: no such image`);
        break;
      }
      default:
        if (!NOT_DRAWN.has(name)) note(skipped, name);
    }
  }
  if (field) finish();

  // ^FN: fields without a position give their data to the format's fields of the same number.
  const values = new Map<number, string>();
  for (const f of fields)
    if (!f.positioned && f.fn !== undefined && f.data !== undefined) values.set(f.fn, f.data);
  const label = new Bitmap(ctx.width, ctx.height);
  for (const f of fields) {
    if (!f.positioned) continue;
    const data = f.fn !== undefined ? (values.get(f.fn) ?? f.data) : f.data;
    try {
      drawField(label, f, data, copy, ctx, defaultFont, warnings, skipped);
    } catch (error) {
      if (!(error instanceof TooLargeError)) throw error;
      warnings.push(`a field at ${f.x},${f.y} not drawn: ${error.message}`);
    }
  }
  let out = label;
  if (mirror) out = mirrored(out);
  if (invert) out = out.rotate('I');
  return { bitmap: out, skipped, warnings };

  function finish(): void {
    // A field without ^A keeps the ^CF font in force when it ended, not the label's last one.
    if (field && !field.font) field.font = { ...defaultFont };
    if (field) fields.push(field);
    field = undefined;
    // The next field starts where this one did unless it says otherwise.
  }
  function whiten(): void {
    // A white shape only shows over black: drawn as a reversed field, it clears what it covers.
    current().reverse = true;
  }
}

function note(list: string[], name: string): void {
  if (!list.includes(name)) list.push(name);
}

function mirrored(src: Bitmap): Bitmap {
  const out = new Bitmap(src.width, src.height);
  for (let y = 0; y < src.height; y++) {
    for (let x = 0; x < src.width; x++)
      out.data[y * src.width + x] = src.data[y * src.width + src.width - 1 - x]!;
  }
  return out;
}

function drawField(
  label: Bitmap,
  f: Field,
  data: string | undefined,
  copy: number,
  ctx: ZplDrawContext,
  defaultFont: AssignedFont,
  warnings: string[],
  skipped: string[],
): void {
  const reverse = f.reverse;
  let upright: Bitmap;
  let anchorY: number; // the ^FT anchor's row in the upright bitmap
  let orientation = f.orientation;
  let barsTop = 0; // ^FO puts the bars (not a line of text above them) at its y
  let box: { x: number; y: number; w: number; h: number } | undefined; // or this rectangle
  const text = () => {
    let value = data ?? '';
    if (f.serial) value = serialValue(value, f.serial.step, copy, f.serial.pad);
    return decodeField(value, f.charset, ctx.fromBytes, f.hex);
  };
  if (f.kind.type === 'picture') {
    upright = f.kind.bitmap;
    anchorY = upright.height;
    orientation = 'N';
  } else if (f.kind.type === 'barcode') {
    try {
      const drawn = drawZplBarcode(f.kind.command, f.kind.params, text(), {
        module: f.module,
        ratio: f.ratio,
        height: f.barHeight,
        dpmm: ctx.dpmm,
      });
      upright = drawn.bitmap;
      anchorY = drawn.barsBottom;
      for (const w of drawn.warnings ?? [])
        warnings.push(`^${f.kind.command} field at ${f.x},${f.y}: ${w}`);
      barsTop = orientation === 'N' ? (drawn.barsTop ?? 0) : 0;
      box = drawn.box;
    } catch (error) {
      const reason =
        error instanceof BarcodeDataError ? error.message : String((error as Error).message);
      warnings.push(`^${f.kind.command} not drawn: ${reason}`);
      return;
    }
  } else if (f.kind.type === 'symbol') {
    const height = Number(f.kind.params[1]) || defaultFont.height;
    const width = Number(f.kind.params[2]) || height;
    const symbols: Record<string, string> = { A: '®', B: '©', C: '™', D: 'UL', E: 'SP' };
    const drawn = drawText(symbols[(data ?? 'A').trim()[0]?.toUpperCase() ?? 'A'] ?? '®', {
      name: '0',
      height,
      width,
    });
    upright = drawn.bitmap;
    anchorY = drawn.baseline;
  } else {
    if (data === undefined) return;
    const font = f.font ?? defaultFont;
    if (font.assigned !== undefined) {
      const [letter, file] = [font.assigned[0], font.assigned.slice(2)];
      note(
        warnings,
        `^CW${font.assigned}: the preview does not have font ${file}; the fields in font ${letter} are drawn in font 0`,
      );
    }
    orientation = f.font?.orientation ?? f.orientation;
    const value = f.glyphs ? applyGlyphMap(text(), f.glyphs) : text();
    const drawn =
      f.block && f.block.width > 0 ? drawBlock(value, font, f.block) : drawText(value, font);
    if (textProbe.line && drawn.glyphs && orientation === 'N' && !f.right && !f.reverse) {
      textProbe.line({ x: f.x, y: f.baseline ? f.y - drawn.baseline : f.y, font, drawn });
    }
    upright = drawn.bitmap;
    anchorY = drawn.baseline;
    if (!isFinite(anchorY)) note(skipped, '^FD');
  }
  const turned = upright.rotate(orientation);
  // Right-justified (^FO x,y,1), upright fields end at x.
  const fx = f.right && orientation === 'N' ? f.x - turned.width : f.x;
  // A QR code placed by ^FO starts the ^BY bar height below it (Labelary: 10 dots with the
  // default ^BY, 100 after ^BY3,2,100), as Zebra's printers shift it.
  const qrShift = f.kind.type === 'barcode' && f.kind.command === 'BQ' ? f.barHeight : 0;
  if (f.baseline) {
    const [ax, ay] = rotatePoint(orientation, 0, anchorY, upright.width, upright.height);
    label.draw(turned, fx - ax, f.y - ay, reverse);
  } else if (box) {
    // The turned rectangle's corner nearest the origin goes to the field origin.
    const [ax, ay] = rotatePoint(orientation, box.x, box.y, upright.width, upright.height);
    const [bx, by] = rotatePoint(
      orientation,
      box.x + box.w,
      box.y + box.h,
      upright.width,
      upright.height,
    );
    label.draw(turned, fx - Math.min(ax, bx), f.y - Math.min(ay, by), reverse);
  } else label.draw(turned, fx, f.y + qrShift - barsTop, reverse);
}
