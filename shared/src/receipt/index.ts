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
export { gs1CheckDigit } from './barcode.js';
