/** A block that passed the schema but cannot be encoded (an image that does not decode). */
export class InvalidBlockError extends Error {
  readonly path: string;
  readonly rule: string;

  constructor(path: string, rule: string) {
    super(`${path}: ${rule}`);
    this.name = 'InvalidBlockError';
    this.path = path;
    this.rule = rule;
  }
}
