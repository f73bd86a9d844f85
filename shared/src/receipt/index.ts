// The receipt engine: receipt documents (schema and limits) and the ESC/POS encoder.
export {
  receiptDocumentSchema,
  receiptBlockSchema,
  validateReceiptDocument,
  RECEIPT_LIMITS,
  BLOCK_TYPES,
} from './schema.js';
export type {
  ReceiptDocument,
  ReceiptDocumentInput,
  ReceiptBlock,
  ReceiptBlockType,
} from './schema.js';
export { encodeReceipt, encodeReceiptWithReport, MAX_COPIES, FOOTER_TEXT } from './encoder.js';
export type { EncodeOptions, EncodeReport, Paper } from './encoder.js';
// Printer languages: the layout's printer-neutral commands, and what each printer receives.
export { RECEIPT_LANGUAGES, mediaTypeOf } from './printer-commands.js';
export type { PrinterLanguage, PrinterCommand } from './printer-commands.js';
export { renderPrinterBytesToPng } from './languages/preview.js';
export type { PrinterBytesPreviewOptions } from './languages/preview.js';
export { gs1CheckDigit } from './barcode.js';
// Building blocks for other raster output (the agent's PDF and image jobs).
export { initialize, feedLines, cut, rasterHeader } from './commands.js';
export { RASTER_BAND_ROWS } from './graphic-blocks.js';
export { toBitmap, placeBitmap } from './image.js';
export type { Bitmap, GrayImage } from './image.js';
