import { PAPER_DOTS } from '@printwire/shared/escpos/index';
import { PDF_LIMITS, rasterizePdf } from '@printwire/shared/documents/pdf-pages';
import { grayToBitmap, rasterJob, type RasterOptions } from './raster.js';

// The pages themselves are drawn in @printwire/shared/documents (the cloud's sandbox draws label
// previews of PDFs with the same code).
export { PDF_LIMITS, rasterizePdf };

export interface ThermalPdfOptions extends RasterOptions {
  paper: '58mm' | '80mm';
  /** Printable dots per line; default the paper's (384 or 576). */
  dots?: number;
  copies?: number;
  /** Default `PDF_LIMITS.maxPages`. */
  maxPages?: number;
  /** Default `PDF_LIMITS.maxPageHeightDots`. */
  maxPageHeightDots?: number;
}

/**
 * A PDF job for a thermal printer: every page rasterized at the printer's dots (pdf.js), dithered
 * (threshold by default: PDFs are mostly text and lines), printed as ESC/POS raster images one
 * after the other, then fed and cut. For system printers the PDF goes to the spooler as it is.
 */
export async function renderPdfForThermal(
  bytes: Uint8Array,
  options: ThermalPdfOptions,
): Promise<Uint8Array> {
  const dots = options.dots ?? PAPER_DOTS[options.paper];
  const pages = await rasterizePdf(bytes, dots, options);
  const dithering = options.dithering ?? 'threshold';
  return rasterJob(
    pages.map((page) => grayToBitmap(page, dots, dithering)),
    options,
  );
}
