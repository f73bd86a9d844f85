/**
 * Line layout on byte strings (one char code per printed cell, see codepage/encode.ts): word
 * wrap, pairs, tables. Pure functions of text and widths in characters.
 */
export type Align = 'left' | 'center' | 'right';

/**
 * Wraps one paragraph at `width` cells: breaks at the last space that fits, cuts words longer
 * than the line. Spaces at a break are dropped. An empty paragraph is one empty line.
 */
export function wrapLine(text: string, width: number): string[] {
  const w = Math.max(1, width);
  if (text.length <= w) return [text];
  const lines: string[] = [];
  let rest = text;
  while (rest.length > w) {
    let cut = rest.lastIndexOf(' ', w);
    let next: number;
    if (cut > 0) {
      next = cut + 1;
    } else {
      cut = w;
      next = w;
    }
    lines.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(next).trimStart();
  }
  if (rest.length > 0 || lines.length === 0) lines.push(rest);
  return lines;
}

/** Pads a line to `width` cells for its alignment (only left padding for center and right). */
export function alignIn(text: string, width: number, align: Align, fill = false): string {
  const space = width - text.length;
  if (space <= 0) return text;
  if (align === 'right') return ' '.repeat(space) + text;
  if (align === 'center') {
    const left = space >> 1;
    return ' '.repeat(left) + text + (fill ? ' '.repeat(space - left) : '');
  }
  return fill ? text + ' '.repeat(space) : text;
}

const ELLIPSIS = '...';
/** Shortest room for a shortened left side to end with an ellipsis rather than be cut. */
const ELLIPSIS_MIN_ROOM = 8;

/**
 * A pair as printed lines: left and right on one line when they fit; otherwise the left side is
 * shortened (ending in "..." when there is room) and the right side kept whole. A right side too
 * long for the line goes under the left side, right-aligned.
 */
export function layoutPair(left: string, right: string, width: number): string[] {
  if (left.length + right.length + (left.length > 0 ? 1 : 0) <= width) {
    return [left + ' '.repeat(width - left.length - right.length) + right];
  }
  const room = width - right.length - 1;
  if (room >= 1) {
    const short =
      room >= ELLIPSIS_MIN_ROOM
        ? left.slice(0, room - ELLIPSIS.length).trimEnd() + ELLIPSIS
        : left.slice(0, room);
    return [short + ' '.repeat(width - short.length - right.length) + right];
  }
  const lines = left.length > 0 ? [left.length > width ? left.slice(0, width) : left] : [];
  for (let i = 0; i < right.length; i += width) {
    lines.push(alignIn(right.slice(i, i + width), width, 'right'));
  }
  return lines;
}

/**
 * Column widths in cells for fractions of a line of `width` cells: each column gets its share
 * rounded down, the cells left over go to the largest remainders, every column gets at least one.
 */
export function columnWidths(fractions: readonly number[], width: number): number[] {
  const exact = fractions.map((f) => f * width);
  const cells = exact.map((e) => Math.max(1, Math.floor(e + 1e-9)));
  const target = Math.min(width, Math.round(fractions.reduce((a, b) => a + b, 0) * width));
  let used = cells.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e + 1e-9) })).sort((a, b) => b.r - a.r);
  for (let k = 0; used < target && k < order.length; k++, used++) cells[order[k]!.i]!++;
  return cells;
}

/**
 * A table row as printed lines: each cell wraps within its column (one space separates a column
 * from the next), aligned per column; the row is as tall as its tallest cell.
 */
export function layoutTableRow(
  cells: readonly string[],
  widths: readonly number[],
  aligns: readonly Align[],
): string[] {
  const last = widths.length - 1;
  const wrapped = widths.map((w, c) => {
    const room = c < last && w > 1 ? w - 1 : w;
    const text = cells[c] ?? '';
    return { room, lines: text.length === 0 ? [''] : wrapLine(text, room) };
  });
  const height = Math.max(...wrapped.map((c) => c.lines.length));
  const out: string[] = [];
  for (let r = 0; r < height; r++) {
    let line = '';
    wrapped.forEach((col, c) => {
      const cell = alignIn(col.lines[r] ?? '', col.room, aligns[c] ?? 'left', true);
      line += c < last ? cell.padEnd(widths[c]!) : cell;
    });
    out.push(line.trimEnd());
  }
  return out;
}
