/**
 * Field issues: a zod failure as the list of fields and the rules they broke (in
 * `@printwire/shared`, since the agent's local server says them too), and the 400 that names
 * them. Below the routes, so that services build the same errors the routes do.
 */
import { PrintwireError, type FieldIssue } from '@printwire/shared/errors/index';
import { issuesMessage } from '@printwire/shared/errors/field-issues';

export { fieldIssues, issueRule } from '@printwire/shared/errors/field-issues';

/** A 400 naming every field: INVALID_JOB for job requests, VALIDATION_FAILED otherwise. */
export function invalid(
  code: 'INVALID_JOB' | 'VALIDATION_FAILED',
  issues: FieldIssue[],
): PrintwireError {
  return new PrintwireError(code, issuesMessage(issues), { details: issues });
}
