/**
 * The pages of a PDF in grey, drawn by pdf.js (with its native canvas) on white, rotation
 * applied: at a paper's width for receipt printers, or scaled to fit a label whole. Not pure: it
 * loads pdf.js and its standard fonts from its package folder.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  getDocument,
  type PDFDocumentProxy,
  type PDFPageProxy,
} from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PrintwireError } from '../errors/index.js';
import type { GrayImage } from '../receipt/image.js';

/** Limits of PDF jobs on thermal and label printers. */
export const PDF_LIMITS = {
  /** Pages rasterized at most; a longer document fails rather than printing metres of paper. */
  maxPages: 50,
  /** Longest page in dots once scaled to the paper width (about 2.5 m at 203 dpi). */
  maxPageHeightDots: 20_000,
} as const;

// pdf.js reads the 14 standard fonts and CJK character maps from its package folder.
const PDFJS_DIR = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

type RenderParameters = Parameters<PDFPageProxy['render']>[0];

interface DrawingContext {
  getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
}
interface CanvasFactory {
  create(w: number, h: number): { canvas: unknown; context: DrawingContext };
  destroy(canvasAndContext: unknown): void;
}

async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  try {
    return await getDocument({
      // pdf.js takes ownership of the buffer it is given: hand it a copy.
      data: Uint8Array.from(bytes),
      standardFontDataUrl: join(PDFJS_DIR, 'standard_fonts') + '/',
      cMapUrl: join(PDFJS_DIR, 'cmaps') + '/',
      cMapPacked: true,
      isEvalSupported: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    throw new PrintwireError('INVALID_JOB', `the PDF cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** How many pages, how long each may be once scaled, and where they go (for the messages). */
interface PageLimits {
  maxPages?: number;
  maxPageHeightDots?: number;
  /** Where the pages go, for the too-many-pages message: `a receipt printer`. */
  printer?: string;
}

/**
 * Each page of a PDF as a grayscale picture drawn by pdf.js on a white background, rotation
 * applied, at the scale `scaleOf` gives for the page's size in points.
 */
async function rasterizePdfPages(
  bytes: Uint8Array,
  scaleOf: (width: number, height: number) => number,
  limits: PageLimits,
): Promise<GrayImage[]> {
  const maxPages = limits.maxPages ?? PDF_LIMITS.maxPages;
  const maxHeight = limits.maxPageHeightDots ?? PDF_LIMITS.maxPageHeightDots;
  const doc = await openPdf(bytes);
  try {
    if (doc.numPages > maxPages) {
      throw new PrintwireError(
        'INVALID_JOB',
        `the PDF has ${doc.numPages} pages; at most ${maxPages} are printed on ${limits.printer ?? 'a receipt printer'}`,
      );
    }
    const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
    const pages: GrayImage[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const points = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: scaleOf(points.width, points.height) });
      const width = Math.max(1, Math.round(viewport.width));
      const height = Math.max(1, Math.round(viewport.height));
      if (height > maxHeight) {
        throw new PrintwireError(
          'INVALID_JOB',
          `page ${n} is ${height} dots long at this paper width; at most ${maxHeight} are printed`,
        );
      }
      const drawing = factory.create(width, height);
      try {
        await page.render({
          canvas: drawing.canvas as RenderParameters['canvas'],
          canvasContext: drawing.context as unknown as RenderParameters['canvasContext'],
          viewport,
          background: '#ffffff',
        }).promise;
        const rgba = drawing.context.getImageData(0, 0, width, height).data;
        const pixels = new Uint8Array(width * height);
        for (let i = 0, p = 0; i < pixels.length; i++, p += 4) {
          pixels[i] = (rgba[p]! * 299 + rgba[p + 1]! * 587 + rgba[p + 2]! * 114) / 1000;
        }
        pages.push({ width, height, pixels });
      } finally {
        factory.destroy(drawing);
        page.cleanup();
      }
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

/**
 * Each page of a PDF as a grayscale picture `dots` wide (the page width scaled to the paper,
 * rotation applied), drawn by pdf.js on a white background.
 */
export function rasterizePdf(
  bytes: Uint8Array,
  dots: number,
  limits: { maxPages?: number; maxPageHeightDots?: number } = {},
): Promise<GrayImage[]> {
  return rasterizePdfPages(bytes, (width) => dots / width, limits);
}

/**
 * Each page of a PDF as a grayscale picture scaled to fit a `width` × `height` dot box whole
 * (never cropped; the page keeps its proportions, so one side may be shorter than the box).
 */
export function rasterizePdfToFit(
  bytes: Uint8Array,
  box: { width: number; height: number },
  limits: { maxPages?: number; printer?: string } = {},
): Promise<GrayImage[]> {
  return rasterizePdfPages(bytes, (w, h) => Math.min(box.width / w, box.height / h), {
    ...limits,
    maxPageHeightDots: box.height,
  });
}
