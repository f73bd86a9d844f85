// The public surface of @printwire/shared. Each module is also importable by its subpath
// (`@printwire/shared/errors/index`), so the cloud and agent take only what they use.
export * from './errors/index.js';
export * from './errors/field-issues.js';
export * from './contracts/index.js';
export * from './time/index.js';
export * from './webhook/index.js';
export * from './protocol/index.js';
export * from './codepage/index.js';
export * from './printers/index.js';
export * from './receipt/index.js';
export * from './escpos/index.js';
export { interpretStarprnt } from './starprnt/index.js';
export { interpretEposXml, EPOS_PRINT_NAMESPACE } from './epos/index.js';
export * from './template/index.js';
export * from './gallery/index.js';
export * from './ids/index.js';
export {
  countLabels,
  detectLabelLanguage,
  renderLabel,
  renderLabelToPng,
  type LabelLanguage,
  type LabelRenderOptions,
  type RenderedLabel,
} from './label/index.js';
export { LABEL_MAX_DOTS } from './label/bitmap.js';
