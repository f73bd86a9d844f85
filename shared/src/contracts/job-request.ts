/**
 * The job request (the body of `POST /v1/jobs`, and of a local `job.print`): its shape and the
 * one check both the cloud and the agent's local server run, so that a job one refuses the other
 * refuses too, with the same details. Every problem is collected: one INVALID_JOB names every
 * field at once, each issue starting with its path (`options.codepage: …`).
 */
import { z } from 'zod';
import { CODEPAGES } from '../codepage/index.js';
import { formatPath, type FieldIssue } from '../errors/index.js';
import { fieldIssues } from '../errors/field-issues.js';
import {
  BASE64_PATTERN,
  CUT_MODES,
  JOB_ENCODINGS,
  JOB_TYPES,
  PAPER_SIZES,
  TYPE_ENCODINGS,
  type JobEncoding,
  type JobType,
} from '../protocol/fields.js';
import { PROTOCOL_LIMITS as L } from '../protocol/limits.js';
import { validateReceiptDocument, type ReceiptDocument } from '../receipt/index.js';
import { urlProblem } from './url.js';

export { JOB_ENCODINGS, JOB_TYPES };

export const jobOptionsSchema = z
  .strictObject({
    copies: z
      .int()
      .min(1)
      .max(L.maxCopies)
      .optional()
      .meta({ description: 'prints the document 1-10 times' }),
    cut: z.enum(CUT_MODES).optional(),
    openDrawer: z.boolean().optional(),
    codepage: z.enum(CODEPAGES).optional(),
    paper: z
      .enum(PAPER_SIZES)
      .optional()
      .meta({ description: 'the paper; default the printer’s or template’s' }),
    expireAfter: z.int().min(60).max(604_800).optional().meta({
      description:
        'seconds a queued job waits before it fails with EXPIRED (within 2 s of its expiresAt); default 86400',
    }),
    maxAttempts: z.int().min(1).max(L.maxAttempts).optional().meta({ description: 'default 3' }),
  })
  .meta({ id: 'JobOptions' });

export const printerReferenceSchema = z
  .union([
    z.string().min(1).max(200).meta({ description: 'a printer id, alias or name' }),
    z.strictObject({
      id: z.string().min(1).max(100).optional(),
      alias: z.string().min(1).max(200).optional(),
      name: z.string().min(1).max(200).optional(),
      deviceId: z.string().min(1).max(100).optional(),
    }),
  ])
  .meta({
    id: 'PrinterReference',
    description: 'selects a printer by id, alias or name (optionally on one device)',
  });

export const metadataSchema = z
  .record(
    z
      .string()
      .regex(/^[A-Za-z0-9_\-.]+$/, { error: 'keys use letters, digits, _, - and .' })
      .min(1)
      .max(L.maxMetadataKeyChars),
    z.string().max(L.maxMetadataValueChars, {
      error: `must be at most ${L.maxMetadataValueChars} characters`,
    }),
  )
  .refine((m) => Object.keys(m).length <= L.maxMetadataKeys, {
    error: `at most ${L.maxMetadataKeys} keys`,
  })
  .meta({
    description: `string keys (1-${L.maxMetadataKeyChars} of A-Z a-z 0-9 _ - .) and string values (at most ${L.maxMetadataValueChars}); at most ${L.maxMetadataKeys} pairs`,
  });

/** The fields of a job request (the documented schema spells `data`'s alternatives out). */
export const jobRequestFields = {
  idempotencyKey: z.string().min(1).max(L.maxIdempotencyKeyChars).optional(),
  printer: printerReferenceSchema.optional(),
  printerId: z.string().min(1).max(100).optional(),
  printerGroupId: z.string().min(1).max(100).optional().meta({
    description:
      'a printer group instead of a printer: the job goes to one of its members (failover or round-robin)',
  }),
  deviceId: z.string().min(1).max(100).optional(),
  alias: z.string().min(1).max(200).optional(),
  templateId: z.string().min(1).max(100).optional(),
  type: z.enum(JOB_TYPES).optional(),
  encoding: z.enum(JOB_ENCODINGS).optional(),
  data: z.unknown(),
  options: jobOptionsSchema.optional(),
  metadata: metadataSchema.optional(),
};

/** The shape only; `checkJobRequest` checks `data` per type and encoding, and the targets. */
export const jobRequestSchema = z.strictObject(jobRequestFields);
export type JobRequest = z.infer<typeof jobRequestSchema>;

/** A direct job's content, checked: ready to store (cloud) or to queue (agent). */
export interface CheckedContent {
  type: JobType;
  encoding: JobEncoding;
  /**
   * The content as text: base64 without whitespace, utf8 text, the URL, or the receipt
   * document as JSON.
   */
  text: string;
  /** The receipt document (encoding json). */
  document?: ReceiptDocument;
}

export interface CheckedJobRequest {
  request: JobRequest;
  /** Set for direct jobs; a template job (templateId) is rendered by whoever holds the template. */
  direct?: CheckedContent;
}

export type JobRequestCheck =
  { ok: true; value: CheckedJobRequest } | { ok: false; issues: FieldIssue[] };

function issue(path: string, rule: string): FieldIssue {
  return { path, message: `${path}: ${rule}` };
}

/**
 * Checks a job request: its shape, the target fields that exclude or need each other, and for a
 * direct job the encoding its type takes and what `data` must be for it (a URL keeps the URL rule:
 * https, http too when `production` is false).
 */
export function checkJobRequest(body: unknown, options: { production: boolean }): JobRequestCheck {
  const parsed = jobRequestSchema.safeParse(body);
  if (!parsed.success) return { ok: false, issues: fieldIssues(parsed.error) };
  const req = parsed.data;
  const issues = [...targetIssues(req)];
  if (req.data === undefined) issues.push(issue('data', 'required'));

  if (req.templateId !== undefined) {
    if (req.type !== undefined) issues.push(issue('type', 'omit type when templateId is set'));
    if (req.encoding !== undefined)
      issues.push(issue('encoding', 'omit encoding when templateId is set'));
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value: { request: req } };
  }

  if (req.type === undefined) {
    issues.push(
      issue('type', `required (one of ${JOB_TYPES.join(', ')}) unless templateId is set`),
    );
    return { ok: false, issues };
  }
  const allowed = TYPE_ENCODINGS[req.type];
  const encoding = req.encoding ?? allowed[0]!;
  if (!allowed.includes(encoding)) {
    issues.push(issue('encoding', `a ${req.type} job takes ${allowed.join(' or ')}`));
    return { ok: false, issues };
  }
  const content =
    req.data === undefined ? undefined : checkData(req.data, encoding, options.production, issues);
  if (issues.length > 0 || !content) return { ok: false, issues };
  return { ok: true, value: { request: req, direct: { type: req.type, encoding, ...content } } };
}

/** Which printer: one way of naming it, and a way that names something. */
function targetIssues(req: JobRequest): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (req.printer !== undefined && req.printerId !== undefined) {
    issues.push(issue('printer', 'give either printer or printerId, not both'));
  }
  if (req.printerGroupId !== undefined) {
    for (const other of ['printerId', 'printer', 'deviceId', 'alias'] as const) {
      if (req[other] !== undefined) {
        issues.push(issue('printerGroupId', `give either printerGroupId or ${other}, not both`));
      }
    }
  }
  if (req.alias !== undefined && req.deviceId === undefined) {
    issues.push(issue('alias', 'needs deviceId (or use printer: { alias })'));
  }
  if (
    typeof req.printer === 'object' &&
    !req.printer.id &&
    !req.printer.alias &&
    !req.printer.name
  ) {
    issues.push(issue('printer', 'name the printer by id, alias or name'));
  }
  return issues;
}

/** `data` for its encoding; pushes the problems and returns the content when there is none. */
function checkData(
  data: unknown,
  encoding: JobEncoding,
  production: boolean,
  issues: FieldIssue[],
): Omit<CheckedContent, 'type' | 'encoding'> | undefined {
  if (encoding === 'json') {
    const result = validateReceiptDocument(data);
    if (result.ok) return { text: JSON.stringify(data), document: result.document };
    for (const i of result.issues) {
      const path = i.path === '(root)' ? 'data' : formatPath(['data', ...splitPath(i.path)]);
      const rule = i.message.startsWith(`${i.path}: `)
        ? i.message.slice(i.path.length + 2)
        : i.message;
      issues.push(issue(path, rule));
    }
    return undefined;
  }
  if (typeof data !== 'string') {
    issues.push(
      issue('data', encoding === 'url' ? 'must be a URL string' : `must be a ${encoding} string`),
    );
    return undefined;
  }
  if (encoding === 'base64') {
    const compact = data.replace(/\s+/g, '');
    if (compact.length > 0 && BASE64_PATTERN.test(compact)) return { text: compact };
    issues.push(issue('data', 'must be non-empty base64'));
    return undefined;
  }
  if (encoding === 'utf8') {
    if (data.length > 0) return { text: data };
    issues.push(issue('data', 'must not be empty'));
    return undefined;
  }
  const problem = urlProblem(data, production);
  if (!problem) return { text: data };
  issues.push(issue('data', problem));
  return undefined;
}

/** `blocks[12].size` → ['blocks', 12, 'size'], to re-root a receipt path under `data`. */
function splitPath(path: string): Array<string | number> {
  const parts: Array<string | number> = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (m[2] !== undefined) parts.push(Number(m[2]));
    else if (m[1] !== undefined) parts.push(m[1]);
  }
  return parts;
}

/** The options a dispatched job carries to the printer (the rest stay with the job). */
export function printOptions(options: JobRequest['options']): Record<string, unknown> {
  const o = options ?? {};
  const out: Record<string, unknown> = {};
  if (o.copies !== undefined) out.copies = o.copies;
  if (o.cut !== undefined) out.cut = o.cut;
  if (o.openDrawer !== undefined) out.openDrawer = o.openDrawer;
  if (o.codepage !== undefined) out.codepage = o.codepage;
  return out;
}
