import { ERROR_CATALOG } from '@printwire/shared/errors/index';
import type { LocalErrorCode } from '@printwire/shared/contracts/local-api';

export type { LocalErrorCode };

/**
 * An error the local API answers with (docs/local-api.md); its message is for the page's
 * developer. Its status and `retryable` come from the one error catalog.
 */
export class LocalApiError extends Error {
  readonly code: LocalErrorCode;
  readonly details: unknown;

  constructor(code: LocalErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'LocalApiError';
    this.code = code;
    this.details = details;
  }

  get retryable(): boolean {
    return ERROR_CATALOG[this.code].retryable;
  }

  get status(): number {
    return ERROR_CATALOG[this.code].status;
  }
}
