/**
 * Warnings of one interpretation, deduplicated and bounded: a stream of 64 KB of garbage gives a
 * few dozen lines, not thousands. Each line names where the warning was first seen.
 */
export class WarningLog {
  private readonly seen = new Map<string, { count: number; offset: number | undefined }>();
  private dropped = 0;

  constructor(private readonly max: number) {}

  add(message: string, offset?: number): void {
    const entry = this.seen.get(message);
    if (entry !== undefined) entry.count++;
    else if (this.seen.size < this.max) this.seen.set(message, { count: 1, offset });
    else this.dropped++;
  }

  list(): string[] {
    const out = [...this.seen].map(([message, { count, offset }]) => {
      const where = offset === undefined ? '' : ` (${count > 1 ? 'first ' : ''}at byte ${offset})`;
      return `${message}${where}${count > 1 ? ` ×${count}` : ''}`;
    });
    if (this.dropped > 0) out.push(`${this.dropped} more warnings not listed`);
    return out;
  }
}
