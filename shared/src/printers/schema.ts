/**
 * What Printwire knows about a printer model: paper, dots, fonts, `ESC t` numbers, cutter, drawer
 * and barcode support. Profiles are data (`shared/data/printers/*.json`) validated with this
 * schema when they load.
 */
import { z } from 'zod';
import { CODEPAGES, type CodepageName } from '../codepage/index.js';

/** Barcode symbologies of receipt documents (spec: "barcode" block). */
export const BARCODE_FORMATS = ['CODE128', 'EAN13', 'EAN8', 'UPC-A', 'CODE39', 'ITF'] as const;
export type BarcodeFormat = (typeof BARCODE_FORMATS)[number];

const codepageNumbers = z
  .partialRecord(z.enum(CODEPAGES), z.number().int().min(0).max(255))
  .refine((r) => Object.keys(r).length > 0, { message: 'must list at least one codepage' });

export const printerProfileSchema = z
  .strictObject({
    /** Lower-case kebab id, also the data file's name (`epson-tm-t20iii`). */
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lower-case kebab-case'),
    name: z.string().min(1).max(100),
    vendor: z.string().min(1).max(100),
    /** Widest paper the printer takes. */
    paper: z.enum(['58mm', '80mm']),
    dpi: z.number().int().min(100).max(600),
    /** Printable width in dots (384 on 58 mm and 576 on 80 mm at 203 dpi; 512 on an 80 mm 180 dpi head). */
    dotsPerLine: z.number().int().min(128).max(832),
    /** Characters per line of font A (12×24) and font B (9×17). */
    charsPerLine: z.strictObject({
      a: z.number().int().min(8).max(100),
      b: z.number().int().min(8).max(120),
    }),
    /** Codepage name → the printer's `ESC t` number for it. */
    codepages: codepageNumbers,
    /** Used when neither the document nor the job names a codepage. */
    defaultCodepage: z.enum(CODEPAGES),
    cutter: z.strictObject({ full: z.boolean(), partial: z.boolean() }),
    /** Has a cash drawer kick-out connector (ESC p). */
    drawer: z.boolean(),
    /** Barcode symbologies the firmware prints with GS k. */
    symbologies: z.array(z.enum(BARCODE_FORMATS)),
    /** Prints QR codes natively (GS ( k, model 2). */
    qr: z.boolean(),
    /**
     * A font of the printer's own for CJK text, used instead of drawing it: in Kanji mode
     * (FS & … FS .), text in `encoding`, each character two columns wide. `scripts` says which
     * lines it takes: Chinese (Han), Japanese (kana and Han), Korean (Hangul and Han).
     */
    nativeText: z
      .strictObject({
        encoding: z.literal('GB18030'),
        scripts: z.array(z.enum(['chinese', 'japanese', 'korean'])).min(1),
      })
      .optional(),
    /** Where the data comes from, and anything an integrator should know. */
    notes: z.string().max(2000).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.codepages[p.defaultCodepage] === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['defaultCodepage'],
        message: `must be one of the profile's codepages (${Object.keys(p.codepages).join(', ')})`,
      });
    }
    if (p.charsPerLine.a * 12 > p.dotsPerLine) {
      ctx.addIssue({
        code: 'custom',
        path: ['charsPerLine', 'a'],
        message: `${p.charsPerLine.a} characters of 12 dots do not fit in ${p.dotsPerLine} dots`,
      });
    }
    if (p.charsPerLine.b * 9 > p.dotsPerLine) {
      ctx.addIssue({
        code: 'custom',
        path: ['charsPerLine', 'b'],
        message: `${p.charsPerLine.b} characters of 9 dots do not fit in ${p.dotsPerLine} dots`,
      });
    }
  });

export type PrinterProfile = z.infer<typeof printerProfileSchema>;

/** The `ESC t` number of a codepage on this printer, or undefined when it lacks it. */
export function escTNumber(profile: PrinterProfile, codepage: CodepageName): number | undefined {
  return profile.codepages[codepage];
}
