import { randomUUID } from 'node:crypto';
import { LocalApiError } from '../local-server/errors.js';
import type { OriginPromptAnswer } from '../local-server/trust.js';

/** One "this page wants to print" question waiting for the person at the computer. */
export interface PendingPrompt {
  id: string;
  origin: string;
  /** When it was asked, epoch ms. */
  askedAt: number;
}

/** Longest wait for an answer; then the page's request is refused, as a Block once would. */
export const PROMPT_TIMEOUT_MS = 120_000;

/**
 * The trust prompt of local mode, answered in the agent's window: `ask` is the local server's
 * `prompt` hook, and the window lists `pending()` and calls `answer`. A question not answered
 * within `PROMPT_TIMEOUT_MS` refuses that request without remembering anything.
 */
export class WindowPrompts {
  readonly #pending = new Map<
    string,
    PendingPrompt & { resolve: (a: OriginPromptAnswer | null) => void }
  >();
  readonly #listeners = new Set<() => void>();
  readonly #now: () => number;
  readonly #timeoutMs: number;

  constructor(options: { now?: () => number; timeoutMs?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#timeoutMs = options.timeoutMs ?? PROMPT_TIMEOUT_MS;
  }

  /** The `prompt` hook of `Agent.open({ localServer })`. */
  readonly ask = (origin: string): Promise<OriginPromptAnswer> =>
    new Promise((resolve, reject) => {
      const id = randomUUID();
      const timer = setTimeout(() => settle(null), this.#timeoutMs);
      timer.unref?.();
      const settle = (answer: OriginPromptAnswer | null) => {
        clearTimeout(timer);
        if (!this.#pending.delete(id)) return;
        this.#changed();
        if (answer) resolve(answer);
        else {
          reject(
            new LocalApiError(
              'ORIGIN_NOT_ALLOWED',
              `no one at this computer answered whether ${origin} may print (${this.#timeoutMs / 1000} s)`,
            ),
          );
        }
      };
      this.#pending.set(id, { id, origin, askedAt: this.#now(), resolve: settle });
      this.#changed();
    });

  pending(): PendingPrompt[] {
    return [...this.#pending.values()].map(({ id, origin, askedAt }) => ({ id, origin, askedAt }));
  }

  /** False when the question is no longer pending (answered elsewhere, or timed out). */
  answer(id: string, answer: OriginPromptAnswer): boolean {
    const prompt = this.#pending.get(id);
    if (!prompt) return false;
    prompt.resolve(answer);
    return true;
  }

  /** Called whenever a question is asked or settled; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
