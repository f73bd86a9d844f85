// Pictures on label printers: label sizes and resolutions, a page made into the 1-bit picture of
// a label, and that picture as ZPL `^GF` or EPL `GW` (and back, for previews and tests).
export * from './label-size.js';
export * from './picture.js';
export * from './zpl-graphic.js';
export * from './epl-graphic.js';
export * from './label-job.js';
export * from './copies.js';
