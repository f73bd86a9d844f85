import { PrintwireError } from '@printwire/shared/errors/index';
import { issuesMessage } from '@printwire/shared/errors/field-issues';
import { checkJobRequest, type JobRequest } from '@printwire/shared/contracts/job-request';
import type { JobEncoding, JobType } from '@printwire/shared/protocol/fields';
import { renderReceiptDocument, renderTemplate } from '@printwire/shared/template/index';
import { LocalApiError } from './errors.js';
import type { StoredTemplate } from './local-store.js';

/**
 * A local job request: the same body as POST /v1/jobs (docs/api.md), checked by the same
 * `checkJobRequest` as the cloud's, because the agent must refuse a bad job before storing it,
 * also offline, and refuse what the cloud refuses. `deviceId` is accepted and ignored (the page
 * prints on this device).
 */
export type LocalJobRequest = JobRequest;

/** A checked request, its content ready for the queue. */
export interface PreparedLocalJob {
  request: LocalJobRequest;
  type: JobType;
  encoding: JobEncoding;
  /** An object for json, a string otherwise (as a dispatched job carries it). */
  content: string | Record<string, unknown>;
  templateId: string | null;
  templatePaper: string | null;
}

/** INVALID_JOB with the cloud's message and details (every field, each with its rule). */
function invalid(issues: Array<{ path: string; message: string }>): LocalApiError {
  return new LocalApiError('INVALID_JOB', issuesMessage(issues), issues);
}

const issue = (path: string, rule: string) => ({ path, message: `${path}: ${rule}` });

/** Checks a job request and renders its template (stored in the data dir) when it names one. */
export function prepareLocalJob(
  body: unknown,
  templates: (id: string) => StoredTemplate | undefined,
  options: { production: boolean },
): PreparedLocalJob {
  const checked = checkJobRequest(body, options);
  if (!checked.ok) throw invalid(checked.issues);
  const { request: req, direct } = checked.value;
  if (!direct) return fromTemplate(req, templates(req.templateId!));
  return {
    request: req,
    type: direct.type,
    encoding: direct.encoding,
    content: direct.encoding === 'json' ? (req.data as Record<string, unknown>) : direct.text,
    templateId: null,
    templatePaper: null,
  };
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
