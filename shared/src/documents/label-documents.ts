/**
 * Documents on label printers: each page of a PDF (an HTML job made into one by a browser
 * first), or a PNG or JPEG, drawn at the printer's resolution on its label, scaled to fit whole
 * and centred, made black and white (dithered only where it has grey), and sent as one label a
 * page in the printer's language: ZPL `^GF` in Zebra's ASCII compression, or EPL `GW`. The agent
 * prints these bytes; the cloud's sandbox draws its preview from the same bytes.
 */
import {
  centreOnLabel,
  labelBitmap,
  labelDots,
  parseLabelSize,
  pictureLabels,
  type GrayImage,
  type LabelDpi,
  type ZplGraphicCompression,
} from '../label-graphics/index.js';
import { imageOnLabel } from './image-pages.js';
import { rasterizePdfToFit } from './pdf-pages.js';

/** A label printer's language and paper. */
export interface LabelPaper {
  language: 'zpl' | 'epl';
  /** The label's size: `4x6in`, `100x150mm`. */
  size: string;
  dpi: LabelDpi;
}

export interface LabelDocumentOptions {
  /** Labels of each page (ZPL `^PQ`, EPL `P`). Default 1. */
  copies?: number;
  /** ZPL `^GF` data form; default `acs` (every ZPL II printer reads it). */
  compression?: ZplGraphicCompression;
  /** Most pages a PDF may have. Default `PDF_LIMITS.maxPages`. */
  maxPages?: number;
}

/** The label in dots, from its size and the printer's resolution. */
export function labelBox(paper: LabelPaper): { width: number; height: number } {
  return labelDots(parseLabelSize(paper.size), paper.dpi);
}

/** Every page of a PDF scaled to fit the label whole and centred on it, in grey. */
export async function pdfOnLabels(
  bytes: Uint8Array,
  box: { width: number; height: number },
  maxPages?: number,
): Promise<GrayImage[]> {
  const pages = await rasterizePdfToFit(bytes, box, {
    printer: 'a label printer (one label a page)',
    ...(maxPages !== undefined ? { maxPages } : {}),
  });
  return pages.map((page) => centreOnLabel(page, box.width, box.height));
}

/** The printer's bytes for labels already drawn in grey, one a page. */
export function labelsOfPages(
  pages: readonly GrayImage[],
  paper: LabelPaper,
  options: LabelDocumentOptions = {},
): Uint8Array {
  return pictureLabels(pages.map(labelBitmap), {
    language: paper.language,
    copies: options.copies ?? 1,
    dpi: paper.dpi,
    ...(options.compression ? { compression: options.compression } : {}),
  });
}

/**
 * A pdf or image job for a ZPL or EPL printer: one label a page (an image is one page), each
 * `copies` times. Throws INVALID_JOB for a document that cannot be read.
 */
export async function renderDocumentForLabel(
  kind: 'pdf' | 'image',
  bytes: Uint8Array,
  paper: LabelPaper,
  options: LabelDocumentOptions = {},
): Promise<Uint8Array> {
  const box = labelBox(paper);
  const pages =
    kind === 'pdf'
      ? await pdfOnLabels(bytes, box, options.maxPages)
      : [await imageOnLabel(bytes, box)];
  return labelsOfPages(pages, paper, options);
}
