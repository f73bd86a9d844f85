/**
 * The cloud's side of the job request check (`checkJobRequest` of @printwire/shared, which the
 * agent's local server runs too): the checked content as the bytes the job store keeps.
 */
import { checkJobRequest, type JobRequest } from '@printwire/shared/contracts/job-request';
import type { FieldIssue } from '@printwire/shared/errors/index';
import type { ReceiptDocument } from '@printwire/shared/receipt/index';

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

export function validateJobRequest(
  body: unknown,
  options: { production: boolean },
): { ok: true; value: ValidJobRequest } | { ok: false; issues: FieldIssue[] } {
  const checked = checkJobRequest(body, options);
  if (!checked.ok) return checked;
  const { request, direct } = checked.value;
  if (!direct) return { ok: true, value: { request } };
  const { text, ...rest } = direct;
  const content = Buffer.from(text, direct.encoding === 'base64' ? 'base64' : 'utf8');
  return { ok: true, value: { request, direct: { ...rest, content } } };
}
