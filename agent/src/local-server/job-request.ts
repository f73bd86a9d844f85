import { z } from 'zod';
import { PrintwireError } from '@printwire/shared/errors/index';
import {
  BASE64_PATTERN,
  JOB_ENCODINGS,
  JOB_TYPES,
  TYPE_ENCODINGS,
} from '@printwire/shared/protocol/fields';
import { validateReceiptDocument } from '@printwire/shared/receipt/index';
import { renderReceiptDocument, renderTemplate } from '@printwire/shared/template/index';
import { LocalApiError } from './errors.js';
import type { StoredTemplate } from './local-store.js';

/**
 * A local job request: the same body as POST /v1/jobs (docs/api.md), checked here because the
 * agent must refuse a bad job before storing it, also offline. `deviceId` is accepted and
 * ignored (the page prints on this device).
 */
const TYPES = JOB_TYPES;
const ENCODINGS = JOB_ENCODINGS;
const BASE64 = BASE64_PATTERN;

export const localJobRequestSchema = z.strictObject({
  idempotencyKey: z.string().min(1).max(255).optional(),
  printer: z
    .union([
      z.string().min(1).max(200),
      z.strictObject({
        id: z.string().min(1).max(100).optional(),
        alias: z.string().min(1).max(200).optional(),
        name: z.string().min(1).max(200).optional(),
        deviceId: z.string().min(1).max(100).optional(),
      }),
    ])
    .optional(),
  printerId: z.string().min(1).max(100).optional(),
  deviceId: z.string().min(1).max(100).optional(),
  alias: z.string().min(1).max(200).optional(),
  templateId: z.string().min(1).max(100).optional(),
  type: z.enum(TYPES).optional(),
  encoding: z.enum(ENCODINGS).optional(),
  data: z.unknown(),
  options: z
    .strictObject({
      copies: z.int().min(1).max(10).optional(),
      cut: z.enum(['full', 'partial', 'none']).optional(),
      openDrawer: z.boolean().optional(),
      codepage: z.string().min(1).max(40).optional(),
      paper: z.enum(['58mm', '80mm']).optional(),
      expireAfter: z.int().min(60).max(604_800).optional(),
      maxAttempts: z.int().min(1).max(10).optional(),
    })
    .optional(),
  metadata: z
    .record(
      z.string().regex(/^[A-Za-z0-9_\-.]{1,40}$/, { error: 'keys are 1-40 of A-Z a-z 0-9 _ - .' }),
      z.string().max(500),
    )
    .refine((m) => Object.keys(m).length <= 50, { error: 'at most 50 keys' })
    .optional(),
});
export type LocalJobRequest = z.infer<typeof localJobRequestSchema>;

/** A checked request, its content ready for the queue. */
export interface PreparedLocalJob {
  request: LocalJobRequest;
  type: (typeof TYPES)[number];
  encoding: (typeof ENCODINGS)[number];
  /** An object for json, a string otherwise (as a dispatched job carries it). */
  content: string | Record<string, unknown>;
  templateId: string | null;
  templatePaper: string | null;
}

function invalid(issues: Array<{ path: string; message: string }>): LocalApiError {
  return new LocalApiError('INVALID_JOB', issues.map((i) => i.message).join('; '), issues);
}

const issue = (path: string, rule: string) => ({ path, message: `${path}: ${rule}` });

/** Checks a job request and renders its template (stored in the data dir) when it names one. */
export function prepareLocalJob(
  body: unknown,
  templates: (id: string) => StoredTemplate | undefined,
  options: { production: boolean },
): PreparedLocalJob {
  const parsed = localJobRequestSchema.safeParse(body);
  if (!parsed.success) {
    throw invalid(parsed.error.issues.map((i) => issue(i.path.join('.') || '(body)', i.message)));
  }
  const req = parsed.data;
  if (req.data === undefined) throw invalid([issue('data', 'required')]);
  if (req.printer !== undefined && req.printerId !== undefined) {
    throw invalid([issue('printer', 'give either printer or printerId, not both')]);
  }
  if (req.templateId !== undefined) {
    const problems = [
      ...(req.type !== undefined ? [issue('type', 'omit type when templateId is set')] : []),
      ...(req.encoding !== undefined
        ? [issue('encoding', 'omit encoding when templateId is set')]
        : []),
    ];
    if (problems.length > 0) throw invalid(problems);
    return fromTemplate(req, templates(req.templateId));
  }
  if (req.type === undefined) {
    throw invalid([
      issue('type', `required (one of ${TYPES.join(', ')}) unless templateId is set`),
    ]);
  }
  const allowed = TYPE_ENCODINGS[req.type];
  const encoding = req.encoding ?? allowed[0]!;
  if (!allowed.includes(encoding)) {
    throw invalid([issue('encoding', `a ${req.type} job takes ${allowed.join(' or ')}`)]);
  }
  const base = { request: req, type: req.type, encoding, templateId: null, templatePaper: null };
  const data = req.data;
  if (encoding === 'json') {
    const result = validateReceiptDocument(data);
    if (!result.ok) {
      throw invalid(result.issues.map((i) => issue(`data.${i.path}`, i.message)));
    }
    return { ...base, content: data as Record<string, unknown> };
  }
  if (typeof data !== 'string') throw invalid([issue('data', `must be a ${encoding} string`)]);
  if (encoding === 'base64') {
    const compact = data.replace(/\s+/g, '');
    if (compact.length === 0 || !BASE64.test(compact)) {
      throw invalid([issue('data', 'must be non-empty base64')]);
    }
    return { ...base, content: compact };
  }
  if (encoding === 'utf8') {
    if (data.length === 0) throw invalid([issue('data', 'must not be empty')]);
    return { ...base, content: data };
  }
  const url = URL.canParse(data) ? new URL(data) : null;
  const ok =
    url !== null &&
    data.length <= 2048 &&
    (url.protocol === 'https:' || (url.protocol === 'http:' && !options.production));
  if (!ok) throw invalid([issue('data', 'must be an https URL (http too outside production)')]);
  return { ...base, content: data };
}

function fromTemplate(
  req: LocalJobRequest,
  template: StoredTemplate | undefined,
): PreparedLocalJob {
  if (!template) {
    throw invalid([
      issue(
        'templateId',
        `no template ${req.templateId} on this agent (templates come from the cloud's config)`,
      ),
    ]);
  }
  const cacheKey = { id: template.id, version: Date.parse(template.updatedAt) || 0 };
  const base = { request: req, templateId: template.id, templatePaper: template.paper };
  try {
    if (template.type === 'receipt') {
      const document = renderReceiptDocument(template.content, req.data, cacheKey);
      return {
        ...base,
        type: 'receipt',
        encoding: 'json',
        content: document as unknown as Record<string, unknown>,
      };
    }
    const text = renderTemplate(template.content, req.data, template.type, cacheKey);
    return { ...base, type: template.type, encoding: 'utf8', content: text };
  } catch (error) {
    if (error instanceof PrintwireError) {
      throw invalid([issue('data', `template ${template.id} cannot render it: ${error.message}`)]);
    }
    throw error;
  }
}
