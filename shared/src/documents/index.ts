/**
 * Documents (PDF pages, PNG and JPEG pictures) in grey and as label printer graphics. Unlike
 * label/ and label-graphics/ (pure), this room loads native code: pdf.js's canvas and sharp. The
 * agent prints with it; the cloud's sandbox draws label previews of documents with it.
 */
export * from './pdf-pages.js';
export * from './image-pages.js';
export * from './label-documents.js';
