/**
 * The URL rule of the contract: a document Printwire fetches (a job's `encoding: url`, a receipt
 * image's `src`, an html job's sub-resources) and a webhook endpoint use https; http too only
 * when not in production (NODE_ENV=production for the cloud, `--production` for the agent).
 */

/** Longest URL a job or an endpoint may name. */
export const MAX_URL_LENGTH = 2048;

/** The schemes allowed, as `URL.protocol` spells them (`https:`). */
export function allowedUrlSchemes(production: boolean): readonly string[] {
  return production ? ['https:'] : ['https:', 'http:'];
}

/** Whether a `URL.protocol` (`https:`, `http:`) is allowed. */
export function isAllowedUrlScheme(protocol: string, production: boolean): boolean {
  return allowedUrlSchemes(production).includes(protocol);
}

/**
 * Why a URL job's address breaks the rule (the rule's words, without the field), or undefined
 * when it keeps it: an absolute URL of at most 2048 characters, https (http too outside
 * production).
 */
export function urlProblem(value: string, production: boolean): string | undefined {
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (isAllowedUrlScheme(url.protocol, production)) return undefined;
  return production ? 'must be an https URL' : 'must be an http or https URL';
}
