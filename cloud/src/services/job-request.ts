/**
 * Validation of a job request beyond its zod shape: which encodings each type takes, what `data`
 * must be for each encoding, the receipt document, and the target fields that exclude each other.
 * Every problem is collected, so one 400 INVALID_JOB names every field at once.
 */
import { formatPath, type FieldIssue } from '@printwire/shared/errors/index';
import { BASE64_PATTERN, TYPE_ENCODINGS } from '@printwire/shared/protocol/fields';
import { validateReceiptDocument, type ReceiptDocument } from '@printwire/shared/receipt/index';
import { fieldIssues } from '../resources/field-issues.js';
import { jobRequestSchema, type JobRequest } from '../resources/schemas.js';

const BASE64 = BASE64_PATTERN;
const MAX_URL_LENGTH = 2048;

export interface ValidJobRequest {
  request: JobRequest;
  /** Set for direct jobs (not template jobs). */
  direct?: {
    type: string;
    encoding: string;
    content: Buffer;
    document?: ReceiptDocument;
  };
}

function issue(path: string, rule: string): FieldIssue {
  return { path, message: `${path}: ${rule}` };
}

/** Checks a URL job's address: https, or http too outside production. */
export function urlProblem(value: string, production: boolean): string | undefined {
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && !production) return undefined;
  return production ? 'must be an https URL' : 'must be an http or https URL';
}

export function validateJobRequest(
  body: unknown,
  options: { production: boolean },
): { ok: true; value: ValidJobRequest } | { ok: false; issues: FieldIssue[] } {
  const parsed = jobRequestSchema.safeParse(body);
  if (!parsed.success) return { ok: false, issues: fieldIssues(parsed.error) };
  const req = parsed.data;
  const issues: FieldIssue[] = [];

  if (req.printer !== undefined && req.printerId !== undefined) {
    issues.push(issue('printer', 'give either printer or printerId, not both'));
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
  if (req.data === undefined) issues.push(issue('data', 'required'));

  if (req.templateId !== undefined) {
    if (req.type !== undefined) issues.push(issue('type', 'omit type when templateId is set'));
    if (req.encoding !== undefined)
      issues.push(issue('encoding', 'omit encoding when templateId is set'));
    if (issues.length > 0) return { ok: false, issues };
    return { ok: true, value: { request: req } };
  }

  if (req.type === undefined) {
    issues.push(
      issue(
        'type',
        `required (one of ${Object.keys(TYPE_ENCODINGS).join(', ')}) unless templateId is set`,
      ),
    );
    return { ok: false, issues };
  }
  const allowed = TYPE_ENCODINGS[req.type]!;
  const encoding = req.encoding ?? allowed[0]!;
  if (!allowed.includes(encoding)) {
    issues.push(issue('encoding', `a ${req.type} job takes ${allowed.join(' or ')}`));
    return { ok: false, issues };
  }

  let content: Buffer | undefined;
  let document: ReceiptDocument | undefined;
  const data = req.data;
  if (data !== undefined) {
    if (encoding === 'json') {
      const result = validateReceiptDocument(data);
      if (result.ok) {
        document = result.document;
        content = Buffer.from(JSON.stringify(data), 'utf8');
      } else {
        for (const i of result.issues) {
          const path = i.path === '(root)' ? 'data' : formatPath(['data', ...splitPath(i.path)]);
          const rule = i.message.startsWith(`${i.path}: `)
            ? i.message.slice(i.path.length + 2)
            : i.message;
          issues.push(issue(path, rule));
        }
      }
    } else if (typeof data !== 'string') {
      issues.push(
        issue('data', encoding === 'url' ? 'must be a URL string' : `must be a ${encoding} string`),
      );
    } else if (encoding === 'base64') {
      const compact = data.replace(/\s+/g, '');
      if (compact.length === 0 || !BASE64.test(compact))
        issues.push(issue('data', 'must be non-empty base64'));
      else content = Buffer.from(compact, 'base64');
    } else if (encoding === 'utf8') {
      if (data.length === 0) issues.push(issue('data', 'must not be empty'));
      else content = Buffer.from(data, 'utf8');
    } else {
      const problem = urlProblem(data, options.production);
      if (problem) issues.push(issue('data', problem));
      else content = Buffer.from(data, 'utf8');
    }
  }
  if (issues.length > 0 || !content) return { ok: false, issues };
  return {
    ok: true,
    value: {
      request: req,
      direct: { type: req.type, encoding, content, ...(document ? { document } : {}) },
    },
  };
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
