/**
 * The one final error handler. Every failure becomes the spec's body
 * `{ error: { code, message, retryable, details? }, requestId }` with the catalog's status;
 * anything that is not a PrintwireError is logged and answered as INTERNAL without its message.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { PrintwireError } from '@printwire/shared/errors/index';
import { fieldIssues, invalid } from '../resources/field-issues.js';
import { locals } from './context.js';

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
  /** Set by http-errors on the errors whose message a client may see. */
  expose?: boolean;
}

/** The router's error for a path segment that is not percent-encoded UTF-8 (`%C0%AF`). */
function isUndecodablePath(err: unknown): boolean {
  return err instanceof URIError && (err as BodyParserError).status === 400;
}

function toPrintwireError(err: unknown): PrintwireError | undefined {
  if (err instanceof PrintwireError) return err;
  if (err instanceof ZodError) return invalid('VALIDATION_FAILED', fieldIssues(err));
  if (isUndecodablePath(err)) {
    return new PrintwireError('VALIDATION_FAILED', 'the path is not valid percent-encoded UTF-8');
  }
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
  // Any other client error the body parser marks as safe to show (a gzip body that is not gzip,
  // a length that does not match the body...).
  if (e?.expose === true && e.status === 400) {
    return new PrintwireError(
      'VALIDATION_FAILED',
      `the request body could not be read: ${e.message ?? 'malformed'}`,
    );
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
