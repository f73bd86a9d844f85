/**
 * The one final error handler. Every failure becomes the spec's body
 * `{ error: { code, message, retryable, details? }, requestId }` with the catalog's status;
 * anything that is not a PrintwireError is logged and answered as INTERNAL without its message.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { PrintwireError, type FieldIssue } from '@printwire/shared/errors/index';
import { fieldIssues, issuesMessage } from '@printwire/shared/errors/field-issues';
import { locals } from './context.js';

// zod issues as field issues live in @printwire/shared (the agent's local server says them too).
export { fieldIssues } from '@printwire/shared/errors/field-issues';

/** A 400 naming every field: INVALID_JOB for job requests, VALIDATION_FAILED otherwise. */
export function invalid(
  code: 'INVALID_JOB' | 'VALIDATION_FAILED',
  issues: FieldIssue[],
): PrintwireError {
  return new PrintwireError(code, issuesMessage(issues), { details: issues });
}

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

function toPrintwireError(err: unknown): PrintwireError | undefined {
  if (err instanceof PrintwireError) return err;
  if (err instanceof ZodError) return invalid('VALIDATION_FAILED', fieldIssues(err));
  const e = err as BodyParserError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new PrintwireError('INVALID_JSON', 'the request body is not valid JSON');
    case 'entity.too.large':
      return new PrintwireError('PAYLOAD_TOO_LARGE', 'the request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new PrintwireError('UNSUPPORTED_MEDIA_TYPE', e.message ?? 'unsupported encoding');
    case 'request.aborted':
      return new PrintwireError('VALIDATION_FAILED', 'the request was aborted');
  }
  return undefined;
}

export const errorHandler: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) {
    next(err);
    return;
  }
  const l = locals(res);
  let error = toPrintwireError(err);
  if (!error) {
    l.log?.error({ err }, 'request failed');
    error = new PrintwireError('INTERNAL', 'an internal error occurred; retry later');
  } else if (error.status >= 500) {
    l.log?.error({ err }, 'request failed');
  }
  if (error.code === 'RATE_LIMITED' && typeof error.details === 'object' && error.details) {
    const retryAfter = (error.details as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
  }
  res.status(error.status).json({
    error: {
      code: error.code,
      message: error.message,
      retryable: error.retryable,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
    requestId: l.requestId ?? null,
  });
};

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new PrintwireError('NOT_FOUND', `no endpoint ${req.method} ${req.path}`));
};
