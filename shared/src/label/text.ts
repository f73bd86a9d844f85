/** Field text: ^FH hex escapes, the character set in force (^CI, EPL I) and ^FB's field blocks. */
import iconv from 'iconv-lite';
import { Bitmap } from './bitmap.js';
import { cellSize, drawText, measureText, type FontRequest, type TextBitmap } from './fonts.js';

/** ZPL ^CI numbers to the table that decodes their bytes (1-12 are national variants of 850's ASCII). */
export function zplCharset(ci: number): string {
  if (ci === 28) return 'utf-8';
  if (ci === 29) return 'utf-16be';
  if (ci === 30) return 'utf-16le';
  const windows: Record<number, string> = {
    27: 'windows-1252',
    31: 'windows-1250',
    33: 'windows-1251',
    34: 'windows-1253',
    35: 'windows-1254',
    36: 'windows-1255',
  };
  return windows[ci] ?? 'cp850';
}

/**
 * Decodes a field's data. Bytes (characters 0-255 of content given as bytes, or produced by ^FH
 * escapes) go through the character set; characters of content given as a string are Unicode
 * already and stay as they are.
 */
export function decodeField(
  data: string,
  charset: string,
  fromBytes: boolean,
  hexIndicator?: string,
): string {
  const bytes: number[] = [];
  let out = '';
  const flush = () => {
    if (bytes.length === 0) return;
    out += iconv.decode(Buffer.from(bytes), charset);
    bytes.length = 0;
  };
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (hexIndicator && c === hexIndicator && /^[0-9A-Fa-f]{2}$/.test(data.slice(i + 1, i + 3))) {
      bytes.push(parseInt(data.slice(i + 1, i + 3), 16));
      i += 2;
      continue;
    }
    const code = c.charCodeAt(0);
    if (fromBytes && code < 256) {
      bytes.push(code);
      continue;
    }
    flush();
    out += c;
  }
  flush();
  return out;
}

export interface FieldBlock {
  width: number;
  lines: number;
  spacing: number;
  justify: string;
  indent: number;
  /** ^TB: the block's height in dots, which sets the line count (else `lines`). */
  height?: number;
}

/** A line of a field block, and whether it ends its paragraph (the block's text or a `\&`). */
export interface BlockLine {
  text: string;
  ends: boolean;
}

/** Breaks text into lines no wider than the block (at spaces; `\&` forces a break). */
export function wrapLines(text: string, font: FontRequest, width: number): BlockLine[] {
  const lines: BlockLine[] = [];
  for (const paragraph of text.split('\\&')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (line !== '' && measureText(candidate, font) > width) {
        lines.push({ text: line, ends: false });
        line = word;
      } else line = candidate;
    }
    lines.push({ text: line, ends: true });
  }
  return lines;
}

/**
 * A line justified to `width` (^FB's J): the words keep their widths and the room left is shared
 * between the spaces, so the first word starts at the left edge and the last ends at the right.
 */
function justifiedLine(text: string, font: FontRequest, width: number): TextBitmap {
  const words = text.split(' ').filter((w) => w !== '');
  const drawn = words.map((w) => drawText(w, font));
  const used = drawn.reduce((sum, d) => sum + d.bitmap.width, 0);
  const gap = (width - used) / (words.length - 1);
  const height = Math.max(...drawn.map((d) => d.bitmap.height));
  const bitmap = new Bitmap(Math.max(1, width), height);
  let x = 0;
  drawn.forEach((d, i) => {
    const left = i === drawn.length - 1 ? width - d.bitmap.width : Math.round(x);
    bitmap.draw(d.bitmap, left, 0);
    x += d.bitmap.width + gap;
  });
  return { bitmap, baseline: drawn[0]!.baseline };
}

/**
 * A field block (^FB): up to `lines` lines in a box `width` wide, justified L, C, R or J; text
 * past the last line is not printed (the printer overprints it on the last line). The baseline
 * returned is the last line's.
 */
export function drawBlock(text: string, font: FontRequest, block: FieldBlock): TextBitmap {
  const all = wrapLines(text, font, block.width);
  const cell = cellSize(font).height;
  const pitch = cell + block.spacing;
  if (block.height !== undefined) {
    block = { ...block, lines: Math.max(1, Math.floor((block.height + block.spacing) / pitch)) };
  }
  const lines = all.slice(0, Math.max(1, block.lines));
  // Only the lines printed take room; ^FT's baseline is still the block's last line's.
  const bitmap = new Bitmap(Math.max(1, block.width), pitch * lines.length - block.spacing);
  let baseline = 0;
  lines.forEach((line, i) => {
    const indent = i > 0 ? block.indent : 0;
    // J: every line but a paragraph's last is stretched to the block's width.
    const justify =
      block.justify === 'J' && !line.ends && line.text.trim().includes(' ')
        ? justifiedLine(line.text, font, block.width - indent)
        : undefined;
    const drawn = justify ?? drawText(line.text, font);
    const room = block.width - indent - drawn.bitmap.width;
    const x = block.justify === 'C' ? Math.floor(room / 2) : block.justify === 'R' ? room : 0;
    bitmap.draw(drawn.bitmap, indent + x, i * pitch);
    baseline = i * pitch + drawn.baseline;
  });
  return {
    bitmap,
    baseline:
      block.lines > lines.length
        ? (block.lines - 1) * pitch + baseline - (lines.length - 1) * pitch
        : baseline,
  };
}
