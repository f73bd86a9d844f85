/**
 * An endpoint described once: its method, path, scope, query, body and responses as zod schemas.
 * Routes register their handlers with these descriptions and /openapi.json is built from them.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z } from 'zod';
import type { Scope } from '../storage/types.js';
import { fieldIssues, invalid } from '../resources/field-issues.js';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Default application/json. */
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI form: `/v1/jobs/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** A scope, any valid key, or no authentication. */
  auth: Scope | 'any' | 'none';
  query?: z.ZodObject;
  /** Extra query parameters the schema cannot express (`metadata.<key>`). */
  extraQuery?: Array<{ name: string; description: string }>;
  params?: z.ZodObject;
  headers?: Array<{ name: string; description: string; schema: z.ZodType }>;
  body?: z.ZodType;
  responses: Record<number, ResponseSpec>;
}

/** The checks each kind of `auth` needs, supplied by the app. */
export interface Guards {
  /** Checks for a valid key within its rate limit, holding `scope` unless it is 'any'. */
  apiKey(scope: Scope | 'any'): (req: Request, res: Response) => Promise<void>;
}

/** Registers `op` on `router` behind its guards. */
export function mount(
  router: Router,
  guards: Guards,
  op: Operation,
  handler: RequestHandler,
): void {
  const path = op.path.replace(/\{(\w+)\}/g, ':$1');
  if (op.auth === 'none') {
    router[op.method](path, handler);
    return;
  }
  const guard = guards.apiKey(op.auth);
  router[op.method](path, async (req, res, next) => {
    await guard(req, res);
    await handler(req, res, next);
  });
}

/** Parses a query or params object with `schema`; 400 VALIDATION_FAILED naming each field. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalid('VALIDATION_FAILED', fieldIssues(result.error));
  return result.data;
}
