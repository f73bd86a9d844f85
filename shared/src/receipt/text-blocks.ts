/** Encoders of the blocks made of characters: text, line, pair and table. */
import { codepageMap } from '../codepage/index.js';
import type { EncodeContext } from './context.js';
import { columnWidths, layoutPair, layoutTableRow, wrapLine } from './layout.js';
import type { ReceiptBlock } from './schema.js';
import { drawPair, drawParagraph, drawTableRow, isScriptText } from './script-text.js';
import { firstStrongIsRtl } from '../text/index.js';

type Block<T extends ReceiptBlock['type']> = Extract<ReceiptBlock, { type: T }>;

/** Splits on line breaks, encodes and wraps each paragraph at `width` cells. */
export function wrapText(ctx: EncodeContext, value: string, width: number): string[] {
  const paragraphs =
    value.includes('\n') || value.includes('\r') ? value.split(/\r\n|\r|\n/) : [value];
  const lines: string[] = [];
  for (const p of paragraphs) lines.push(...wrapLine(ctx.text.encode(p), width));
  return lines;
}

/** Splits a value into its paragraphs (at line breaks). */
function paragraphsOf(value: string): string[] {
  return value.includes('\n') || value.includes('\r') ? value.split(/\r\n|\r|\n/) : [value];
}

/**
 * A text block. Paragraphs in a script the code page cannot carry are drawn (script-text.ts);
 * the others are text. With no `align` of its own, a block whose first
 * strong character is right-to-left is aligned right.
 */
export function encodeText(ctx: EncodeContext, b: Block<'text'>): void {
  const align = b.align ?? (firstStrongIsRtl(b.value) ? 'right' : 'left');
  const paragraphs = paragraphsOf(b.value);
  const drawn = paragraphs.map((p) => isScriptText(ctx, p));
  if (!drawn.includes(true)) return encodeTextLines(ctx, b, align, b.value);
  for (let i = 0; i < paragraphs.length;) {
    let j = i + 1;
    while (j < paragraphs.length && drawn[j] === drawn[i]) j++;
    if (drawn[i]) {
      for (const p of paragraphs.slice(i, j)) {
        drawParagraph(ctx, p, { ...b, align });
      }
    } else {
      encodeTextLines(ctx, b, align, paragraphs.slice(i, j).join('\n'));
    }
    i = j;
  }
}

function encodeTextLines(
  ctx: EncodeContext,
  b: Block<'text'>,
  align: NonNullable<Block<'text'>['align']>,
  value: string,
): void {
  const { out } = ctx;
  const perLine = b.font === 'b' ? ctx.page.charsB : ctx.page.charsA;
  const lines = wrapText(ctx, value, Math.max(1, Math.floor(perLine / b.size)));
  if (align !== 'left') out.align(align);
  if (b.font === 'b') out.font('b');
  if (b.bold) out.bold(true);
  if (b.underline) out.underline(true);
  if (b.invert) out.invert(true);
  if (b.size > 1) out.size(b.size, b.size);
  for (const line of lines) out.line(line);
  // Styles are reset after each block, so one block never leaks into the next.
  if (b.size > 1) out.size(1, 1);
  if (b.invert) out.invert(false);
  if (b.underline) out.underline(false);
  if (b.bold) out.bold(false);
  if (b.font === 'b') out.font('a');
  if (align !== 'left') out.align('left');
}

/** The character a line style is drawn with in this codepage (box drawing where it has it). */
function ruleChar(ctx: EncodeContext, style: Block<'line'>['style']): string {
  const map = codepageMap(ctx.text.codepage);
  const box = style === 'double' ? map.get(0x2550) : map.get(0x2500);
  if (style === 'dashed') return '-';
  if (box !== undefined) return String.fromCharCode(box);
  return style === 'double' ? '=' : '-';
}

export function encodeLine(ctx: EncodeContext, b: Block<'line'>): void {
  const width = ctx.page.charsA;
  const c = ruleChar(ctx, b.style);
  const line =
    b.style === 'dashed' ? '- '.repeat(Math.ceil(width / 2)).slice(0, width) : c.repeat(width);
  ctx.out.line(line);
}

export function encodePair(ctx: EncodeContext, b: Block<'pair'>): void {
  const { out } = ctx;
  if (isScriptText(ctx, b.left) || isScriptText(ctx, b.right)) {
    return drawPair(ctx, b.left, b.right, b.bold);
  }
  const lines = layoutPair(ctx.text.encode(b.left), ctx.text.encode(b.right), ctx.page.charsA);
  if (b.bold) out.bold(true);
  for (const line of lines) out.line(line);
  if (b.bold) out.bold(false);
}

export function encodeTable(ctx: EncodeContext, b: Block<'table'>): void {
  const { out } = ctx;
  const widths = columnWidths(
    b.columns.map((c) => c.width),
    ctx.page.charsA,
  );
  const aligns = b.columns.map((c) => c.align);
  if (b.bold) out.bold(true);
  for (const row of b.rows) {
    if (row.some((cell) => isScriptText(ctx, cell))) {
      drawTableRow(ctx, row, widths, aligns, b.bold);
      continue;
    }
    const cells = row.map((cell) => ctx.text.encode(cell));
    for (const line of layoutTableRow(cells, widths, aligns)) out.line(line);
  }
  if (b.bold) out.bold(false);
}
