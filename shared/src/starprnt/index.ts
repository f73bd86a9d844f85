/** The StarPRNT interpreter: what a Star printer prints from StarPRNT bytes. */
export { interpretStarprnt } from './interpreter.js';
