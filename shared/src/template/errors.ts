import { PrintwireError, type FieldIssue } from '../errors/index.js';

/** Where a template error sits: 1-based line and column of the template text (or of the output). */
export interface TemplatePosition {
  line: number;
  column: number;
}

/**
 * A template that cannot be compiled, or data it cannot render. The message names the line and
 * column (`line 3, column 5: unclosed section "items"`) and `String(error)` reads
 * `TemplateError: line 3, column 5: …`. It is a PrintwireError with code INVALID_JOB, so a job
 * that hits one fails with INVALID_JOB (spec, template rule 4) without any mapping.
 */
export class TemplateError extends PrintwireError {
  /** 1-based line of the template (or of the rendered output when `inOutput`), if known. */
  readonly line: number | undefined;
  /** 1-based column, counted in UTF-16 code units like an editor's cursor. */
  readonly column: number | undefined;
  /** What is wrong, without the position. */
  readonly reason: string;
  /** True when line and column point into the rendered output rather than the template. */
  readonly inOutput: boolean;

  constructor(
    reason: string,
    position?: TemplatePosition,
    options: { issues?: FieldIssue[]; inOutput?: boolean; cause?: unknown } = {},
  ) {
    const where =
      position === undefined
        ? ''
        : `${options.inOutput === true ? 'rendered output ' : ''}line ${position.line}, column ${position.column}: `;
    super('INVALID_JOB', where + reason, { details: options.issues, cause: options.cause });
    this.name = 'TemplateError';
    this.line = position?.line;
    this.column = position?.column;
    this.reason = reason;
    this.inOutput = options.inOutput === true;
  }
}

/** 1-based line and column of `offset` in `text`. */
export function positionAt(text: string, offset: number): TemplatePosition {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
