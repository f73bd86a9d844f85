// @printwire/shared/testing: the support shared's own tests and the end-to-end tests build on
// (hand-written ESC/POS, the interpreter's ink, receipt fixtures). Never imported by a source file.
export * from './escpos.js';
export * from './receipt.js';
