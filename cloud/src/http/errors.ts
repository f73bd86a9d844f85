/**
 * The one final error handler. Every failure becomes the spec's body
 * `{ error: { code, message, retryable, details? }, requestId }` with the catalog's status;
 * anything that is not a PrintwireError is logged and answered as INTERNAL without its message.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError, type core } from 'zod';
import {
  FIELD_RULES,
  formatPath,
  PrintwireError,
  type FieldIssue,
  type FieldRule,
} from '@printwire/shared/errors/index';
import { locals } from './context.js';

const SIZE_RULES: Record<string, [FieldRule, FieldRule]> = {
  string: ['min_length', 'max_length'],
  array: ['min_items', 'max_items'],
  set: ['min_items', 'max_items'],
};

/**
 * The rule a zod issue names, as a stable word with its bounds: what a client translates
 * (the dashboard says "At least 10 characters" in its user's language from `min_length`).
 */
export function issueRule(issue: core.$ZodIssue): Pick<FieldIssue, 'rule' | 'params'> {
  switch (issue.code) {
    case 'too_small': {
      // An empty string where one character is the least: the field is simply required.
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return { rule: 'required' };
      const rule: FieldRule = SIZE_RULES[issue.origin]?.[0] ?? 'min';
      return { rule, params: { minimum: Number(issue.minimum) } };
    }
    case 'too_big': {
      const rule: FieldRule = SIZE_RULES[issue.origin]?.[1] ?? 'max';
      return { rule, params: { maximum: Number(issue.maximum) } };
    }
    case 'invalid_format':
      if (issue.format === 'email') return { rule: 'email' };
      if (issue.format === 'url') return { rule: 'url' };
      return { rule: 'format', params: { format: issue.format } };
    case 'invalid_type':
      // zod v4 keeps no input on the issue; its message ends with what it received.
      return / received undefined$/.test(issue.message)
        ? { rule: 'required' }
        : { rule: 'type', params: { expected: issue.expected } };
    case 'invalid_value':
      return { rule: 'one_of', params: { values: issue.values.map(String).join(', ') } };
    case 'unrecognized_keys':
      return { rule: 'unknown_field' };
    case 'custom': {
      // A refinement names its rule in its params: `{ rule: 'one_of', values: '0, 1, 7' }`.
      const { rule, ...params } = (issue.params ?? {}) as Record<string, string | number>;
      if (!(FIELD_RULES as readonly unknown[]).includes(rule)) return {};
      const known = rule as FieldRule;
      return Object.keys(params).length > 0 ? { rule: known, params } : { rule: known };
    }
    default:
      return {};
  }
}

/**
 * zod issues as FieldIssues whose message starts with the path (`limit: must be 1-100`), each
 * with the rule it broke where zod names one.
 */
export function fieldIssues(
  error: ZodError,
  prefix: ReadonlyArray<PropertyKey> = [],
): FieldIssue[] {
  return error.issues.map((issue) => {
    const path = formatPath([...prefix, ...issue.path]);
    return { path, message: `${path}: ${issue.message}`, ...issueRule(issue) };
  });
}

/** A 400 naming every field: INVALID_JOB for job requests, VALIDATION_FAILED otherwise. */
export function invalid(
  code: 'INVALID_JOB' | 'VALIDATION_FAILED',
  issues: FieldIssue[],
): PrintwireError {
  const head = issues
    .slice(0, 3)
    .map((i) => i.message)
    .join('; ');
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return new PrintwireError(code, `${head}${more}`, { details: issues });
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
