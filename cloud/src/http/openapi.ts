/**
 * /openapi.json (OpenAPI 3.1), generated from the same zod schemas the handlers validate with.
 * Schemas carrying `meta({ id })` become `components.schemas`; everything else is inlined.
 */
import { z } from 'zod';
import type { Operation } from './operation.js';
import { errorBodySchema } from '../resources/schemas.js';

type Json = Record<string, unknown>;

/** Converts a schema; its named sub-schemas are moved into `components`. */
function toSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  components: Record<string, Json>,
): Json {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Json;
  delete json.$schema;
  const defs = (json.$defs ?? {}) as Record<string, Json>;
  delete json.$defs;
  const rewrite = (value: Json): Json =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
  for (const [name, def] of Object.entries(defs)) components[name] ??= rewrite(def);
  const id = z.globalRegistry.get(schema)?.id;
  if (typeof id === 'string') {
    components[id] ??= rewrite(json);
    return { $ref: `#/components/schemas/${id}` };
  }
  return rewrite(json);
}

function queryParameters(op: Operation, components: Record<string, Json>): Json[] {
  const params: Json[] = [];
  if (op.params) {
    for (const [name, schema] of Object.entries(op.params.shape)) {
      params.push({
        name,
        in: 'path',
        required: true,
        schema: toSchema(schema as z.ZodType, 'input', components),
      });
    }
  }
  if (op.query) {
    for (const [name, schema] of Object.entries(op.query.shape)) {
      const s = schema as z.ZodType;
      const converted = toSchema(s, 'input', components);
      const description =
        (converted.description as string | undefined) ?? z.globalRegistry.get(s)?.description;
      params.push({
        name,
        in: 'query',
        required: !s.safeParse(undefined).success,
        ...(description ? { description } : {}),
        schema: converted,
      });
    }
  }
  for (const extra of op.extraQuery ?? []) {
    params.push({
      name: extra.name,
      in: 'query',
      required: false,
      description: extra.description,
      schema: { type: 'string' },
    });
  }
  for (const header of op.headers ?? []) {
    params.push({
      name: header.name,
      in: 'header',
      required: false,
      description: header.description,
      schema: toSchema(header.schema, 'input', components),
    });
  }
  return params;
}

export function buildOpenApi(
  operations: readonly Operation[],
  info: { version: string; serverUrl?: string },
): Json {
  const components: Record<string, Json> = {};
  const paths: Record<string, Record<string, Json>> = {};
  const commonErrors: Record<number, string> = {
    401: 'UNAUTHORIZED: missing, unknown or revoked API key',
    403: 'FORBIDDEN: the key lacks the scope named in the message',
    429: 'RATE_LIMITED: over 100 requests per second with this key; see Retry-After',
  };
  const requestErrors: Record<number, string> = {
    400: 'INVALID_JSON or VALIDATION_FAILED: a malformed body, query or path; details name each field',
    413: 'PAYLOAD_TOO_LARGE: the request body is over the size limit',
    415: 'UNSUPPORTED_MEDIA_TYPE: a body that is not application/json (UTF-8)',
  };
  for (const op of operations) {
    const responses: Record<string, Json> = {};
    for (const [status, spec] of Object.entries(op.responses)) {
      responses[status] = {
        description: spec.description,
        ...(spec.headers
          ? {
              headers: Object.fromEntries(
                Object.entries(spec.headers).map(([name, description]) => [
                  name,
                  { description, schema: { type: 'string' } },
                ]),
              ),
            }
          : {}),
        ...(spec.schema
          ? {
              content: {
                [spec.contentType ?? 'application/json']: {
                  schema: toSchema(spec.schema, 'output', components),
                },
              },
            }
          : spec.contentType
            ? { content: { [spec.contentType]: { schema: { type: 'string', format: 'binary' } } } }
            : {}),
      };
    }
    if (op.auth !== 'none') {
      for (const [status, description] of Object.entries(commonErrors)) {
        if (status === '403' && op.auth === 'any') continue;
        responses[status] ??= {
          description,
          content: {
            'application/json': { schema: toSchema(errorBodySchema, 'output', components) },
          },
        };
      }
    }
    // The body parser and the router judge every request before its handler does, so any
    // operation can answer these (a GET with a malformed JSON body, a path id that is not UTF-8).
    for (const [status, description] of Object.entries(requestErrors)) {
      responses[status] ??= {
        description,
        content: {
          'application/json': { schema: toSchema(errorBodySchema, 'output', components) },
        },
      };
    }
    const operation: Json = {
      operationId: `${op.method}${op.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      ...(op.auth === 'none' ? { security: [] } : { security: [{ apiKey: [] }] }),
      ...(op.auth !== 'none' && op.auth !== 'any' ? { 'x-scope': op.auth } : {}),
      parameters: queryParameters(op, components),
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: toSchema(op.body, 'input', components) } },
            },
          }
        : {}),
      responses,
    };
    (paths[op.path] ??= {})[op.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Printwire API',
      version: info.version,
      description:
        "The Printwire cloud print API. Authenticate with Authorization: Bearer pw_live_… (real printers) or pw_test_… (the sandbox). Every error body is { error: { code, message, retryable, details? }, requestId }; a 400's details are [{ path, message, rule?, params? }]: the field, its English message, and the rule it broke as a stable word (required, min_length, max_length, min_items, max_items, min, max, email, url, format, type, one_of, unknown_field, unique, six_digits, link_invalid, name_mismatch) with its bounds, for a client to say in its own language.",
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'pw_live_… or pw_test_… API key' },
      },
      schemas: Object.fromEntries(
        Object.entries(components).sort(([a], [b]) => a.localeCompare(b)),
      ),
    },
  };
}
