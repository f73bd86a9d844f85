/**
 * Label jobs (ZPL, EPL) go to the printer byte for byte with `copies` applied in the printer's
 * own language (see @printwire/shared/label-graphics/copies: the sandbox's previews count labels
 * from the same bytes).
 */
export { eplWithCopies, zplWithCopies } from '@printwire/shared/label-graphics/copies';
