/**
 * Receipt document → ESC/POS bytes for one printer profile, with job options applied after the
 * document. Synchronous and pure: images given as URLs go through the injected resolver.
 */
import { z } from 'zod';
import { PrintwireError, type FieldIssue } from '../errors/index.js';
import {
  CODEPAGES,
  CodepageEncoder,
  parseCodepageName,
  type CodepageName,
  type Substitution,
} from '../codepage/index.js';
import { getPrinterProfile, printerProfileSchema, type PrinterProfile } from '../printers/index.js';
import type { EncodeContext, PageGeometry } from './context.js';
import { InvalidBlockError } from './errors.js';
import { encodeBarcode, encodeImage, encodeQr } from './graphic-blocks.js';
import {
  validateReceiptDocument,
  decodeBase64,
  type ReceiptBlock,
  type ReceiptDocument,
} from './schema.js';
import { encodeLine, encodePair, encodeTable, encodeText } from './text-blocks.js';
import { layoutCodepage, LANGUAGE_ENCODERS } from './languages/index.js';
import {
  CommandList,
  mediaTypeOf,
  RECEIPT_LANGUAGES,
  type PrinterCommand,
  type PrinterLanguage,
} from './printer-commands.js';

export type Paper = '58mm' | '80mm';

/** Job options (spec "Job options"), applied after the document. */
export interface EncodeOptions {
  /** Used when the document names no codepage; the profile's default otherwise. */
  codepage?: CodepageName;
  /** Prints the whole document this many times (1-10; default 1). */
  copies?: number;
  /**
   * The cut after each copy: replaces a cut block that ends the document; 'none' drops that
   * cut. Unset: the document's own cuts only.
   */
  cut?: 'full' | 'partial' | 'none';
  /** Opens the cash drawer (pin 2) once, after the last copy. */
  openDrawer?: boolean;
  /** Adds the free plan's line "Printed with Printwire" (centered, font B) before the final cut. */
  footer?: boolean;
  /** The paper loaded in the printer, when it is narrower than the profile's. */
  paper?: Paper;
  /** Returns the bytes of an image URL, or undefined (a crossed box is printed instead). */
  resolveImage?: (url: string) => Uint8Array | undefined;
  /**
   * What the printer understands (default 'escpos'): ESC/POS bytes, StarPRNT bytes (Star
   * CloudPRNT), ePOS-Print XML (Epson Server Direct Print), or a PNG of the whole receipt.
   */
  language?: PrinterLanguage;
}

export interface EncodeReport {
  bytes: Uint8Array;
  warnings: string[];
  /** Characters the codepage lacks and what was printed instead, each once with a count. */
  substitutions: Substitution[];
  /** The paper the document was laid out for. */
  paper: Paper;
  /** The codepage the text was encoded in. */
  codepage: CodepageName;
  /** The language of `bytes`. */
  language: PrinterLanguage;
  /** The media type of `bytes` (see mediaTypeOf). */
  mediaType: string;
}

/** At most this many copies of one job. */
export const MAX_COPIES = 10;

/** The footer of the free plan (CONTRACT: service name Printwire). */
export const FOOTER_TEXT = 'Printed with Printwire';

/** Page geometry of a paper on printers whose own paper differs (203 dpi, fonts 12 and 9 dots). */
const STANDARD_PAGES: Record<Paper, PageGeometry> = {
  '58mm': { paper: '58mm', dots: 384, charsA: 32, charsB: 42 },
  '80mm': { paper: '80mm', dots: 576, charsA: 48, charsB: 64 },
};

/** Lines fed instead of cutting on a printer without a cutter, to reach its tear bar. */
const TEAR_OFF_FEED = 4;

const optionsSchema = z.object({
  codepage: z.string().optional(),
  copies: z
    .number({ error: `must be 1-${MAX_COPIES}` })
    .int({ error: `must be 1-${MAX_COPIES}` })
    .min(1, { error: `must be 1-${MAX_COPIES}` })
    .max(MAX_COPIES, { error: `must be 1-${MAX_COPIES}` })
    .optional(),
  cut: z.enum(['full', 'partial', 'none'], { error: 'must be full, partial or none' }).optional(),
  openDrawer: z.boolean({ error: 'must be true or false' }).optional(),
  footer: z.boolean({ error: 'must be true or false' }).optional(),
  paper: z.enum(['58mm', '80mm'], { error: 'must be 58mm or 80mm' }).optional(),
  resolveImage: z
    .custom<(url: string) => Uint8Array | undefined>((v) => typeof v === 'function', {
      error: 'must be a function',
    })
    .optional(),
  language: z
    .enum(RECEIPT_LANGUAGES, { error: `must be one of ${RECEIPT_LANGUAGES.join(', ')}` })
    .optional(),
});

function invalid(issues: FieldIssue[]): PrintwireError {
  const first = issues[0]?.message ?? 'invalid';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new PrintwireError('INVALID_JOB', `invalid receipt: ${first}${more}`, { details: issues });
}

const checkedProfiles = new WeakMap<object, PrinterProfile>();

function resolveProfile(profile: string | PrinterProfile): PrinterProfile {
  if (typeof profile === 'string') return getPrinterProfile(profile);
  let checked = checkedProfiles.get(profile);
  if (checked === undefined) {
    const result = printerProfileSchema.safeParse(profile);
    if (!result.success) {
      throw new PrintwireError('INVALID_JOB', 'the printer profile is invalid', {
        details: result.error.issues.map((i) => ({
          path: `profile.${i.path.join('.')}`,
          message: `profile.${i.path.join('.')}: ${i.message}`,
        })),
      });
    }
    checked = result.data;
    checkedProfiles.set(profile, checked);
  }
  return checked;
}

function pageFor(profile: PrinterProfile, paper: Paper): PageGeometry {
  if (paper === profile.paper) {
    return {
      paper,
      dots: profile.dotsPerLine,
      charsA: profile.charsPerLine.a,
      charsB: profile.charsPerLine.b,
    };
  }
  return STANDARD_PAGES[paper];
}

/** Encodes a receipt document for a printer; see `encodeReceiptWithReport`. */
export function encodeReceipt(
  document: ReceiptDocument | unknown,
  profile: string | PrinterProfile,
  options: EncodeOptions = {},
): Uint8Array {
  return encodeReceiptWithReport(document, profile, options).bytes;
}

/**
 * Encodes a receipt document for a printer (a profile id or object) and reports what it had to
 * change: warnings (symbols shrunk or printed as text, images not fetched, paper or codepage the
 * printer lacks) and the characters transliterated for the codepage.
 *
 * Throws PrintwireError INVALID_JOB (details: one FieldIssue per problem) for an invalid document
 * or options, and NOT_FOUND for an unknown profile id.
 */
export function encodeReceiptWithReport(
  document: ReceiptDocument | unknown,
  profile: string | PrinterProfile,
  options: EncodeOptions = {},
): EncodeReport {
  const validated = validateReceiptDocument(document);
  if (!validated.ok) throw invalid(validated.issues);
  const doc = validated.document;
  const opts = optionsSchema.safeParse(options);
  if (!opts.success) {
    throw invalid(
      opts.error.issues.map((i) => {
        const path = `options.${i.path.join('.')}`;
        return { path, message: `${path}: ${i.message}` };
      }),
    );
  }
  let optionCodepage: CodepageName | undefined;
  if (options.codepage !== undefined) {
    optionCodepage = parseCodepageName(options.codepage);
    if (optionCodepage === undefined) {
      const message = `options.codepage: must be one of ${CODEPAGES.join(', ')}`;
      throw invalid([{ path: 'options.codepage', message }]);
    }
  }
  const printer = resolveProfile(profile);

  const warnings: string[] = [];
  const warn = (message: string): void => {
    if (!warnings.includes(message)) warnings.push(message);
  };

  let printerPaper: Paper = options.paper ?? printer.paper;
  if (printerPaper === '80mm' && printer.paper === '58mm') {
    warn(`options.paper: ${printer.name} takes 58mm paper at most; laid out at 58mm`);
    printerPaper = '58mm';
  }
  let paper: Paper = doc.width ?? printerPaper;
  if (paper === '80mm' && printerPaper === '58mm') {
    warn(`width: the 80mm document is laid out on the printer's 58mm paper`);
    paper = '58mm';
  }

  let codepage: CodepageName = doc.codepage ?? optionCodepage ?? printer.defaultCodepage;
  if (printer.codepages[codepage] === undefined) {
    warn(
      `codepage: ${printer.name} has no ${codepage}; text is encoded in ${printer.defaultCodepage}`,
    );
    codepage = printer.defaultCodepage;
  }
  const language = options.language ?? 'escpos';
  codepage = layoutCodepage(language, codepage);

  const text = new CodepageEncoder(codepage);
  const body = new CommandList();
  const ctx: EncodeContext = {
    out: body,
    text,
    page: pageFor(printer, paper),
    profile: printer,
    warn,
    resolveImage: options.resolveImage,
    nativeCjk: language === 'escpos' || language === 'raster',
  };

  // The cut that ends the document is the job's final cut: a job's cut option replaces it and
  // the footer goes before it.
  const blocks = doc.blocks;
  const last = blocks[blocks.length - 1];
  const endsWithCut = last !== undefined && last.type === 'cut';
  const bodyBlocks = endsWithCut ? blocks.slice(0, -1) : blocks;
  const finalCut = options.cut ?? (endsWithCut ? last.mode : 'none');

  try {
    bodyBlocks.forEach((block, index) => encodeBlock(ctx, block, index, language));
  } catch (err) {
    if (err instanceof InvalidBlockError) {
      throw invalid([{ path: err.path, message: err.message }]);
    }
    throw err;
  }
  if (options.footer === true) {
    body.align('center').font('b').line(text.encode(FOOTER_TEXT)).font('a').align('left');
  }
  if (finalCut !== 'none') writeCut(ctx, finalCut);

  const copy = body.commands;
  const copies = options.copies ?? 1;
  const commands: PrinterCommand[] = [{ op: 'initialize', codepage }];
  for (let i = 0; i < copies; i++) commands.push(...copy);
  if (options.openDrawer === true) {
    if (printer.drawer) commands.push({ op: 'drawer', pin: 2 });
    else warn(`options.openDrawer: ${printer.name} has no cash drawer connector; not opened`);
  }
  const bytes = LANGUAGE_ENCODERS[language].encode(commands, {
    profile: printer,
    page: ctx.page,
    warn,
  });
  return {
    bytes,
    warnings,
    substitutions: text.substitutions(),
    paper,
    codepage,
    language,
    mediaType: mediaTypeOf(language),
  };
}

function writeCut(ctx: EncodeContext, mode: 'full' | 'partial'): void {
  const { cutter, name } = ctx.profile;
  if (cutter[mode]) {
    ctx.out.push({ op: 'cut', mode });
  } else if (cutter.full || cutter.partial) {
    const other = mode === 'full' ? 'partial' : 'full';
    ctx.warn(`cut: ${name} has no ${mode} cut; cut ${other === 'full' ? 'fully' : 'partially'}`);
    ctx.out.push({ op: 'cut', mode: other });
  } else {
    ctx.warn(`cut: ${name} has no cutter; paper fed to the tear bar instead`);
    ctx.out.feed(TEAR_OFF_FEED);
  }
}

function encodeBlock(
  ctx: EncodeContext,
  block: ReceiptBlock,
  index: number,
  language: PrinterLanguage,
): void {
  switch (block.type) {
    case 'text':
      return encodeText(ctx, block);
    case 'line':
      return encodeLine(ctx, block);
    case 'pair':
      return encodePair(ctx, block);
    case 'table':
      return encodeTable(ctx, block);
    case 'qr':
      return encodeQr(ctx, block, index);
    case 'barcode':
      return encodeBarcode(ctx, block, index);
    case 'image':
      return encodeImage(ctx, block, index);
    case 'feed':
      ctx.out.feed(block.lines);
      return;
    case 'cut':
      return writeCut(ctx, block.mode);
    case 'drawer':
      if (ctx.profile.drawer) ctx.out.push({ op: 'drawer', pin: block.pin });
      else
        ctx.warn(`blocks[${index}]: ${ctx.profile.name} has no cash drawer connector; not opened`);
      return;
    case 'raw':
      // Raw bytes are ESC/POS: a printer of another language would print them as garbage.
      if (language === 'escpos' || language === 'raster') {
        ctx.out.push({ op: 'raw', bytes: decodeBase64(block.data)! });
      } else {
        ctx.warn(`blocks[${index}]: raw ESC/POS bytes are not sent to a ${language} printer`);
      }
      return;
  }
}
