import { PrintwireError } from '@printwire/shared/errors/index';
import { isAllowedUrlScheme } from '@printwire/shared/contracts/url';

/**
 * The URLs the agent downloads: https always, http only outside production (the contract's
 * `encoding: url` rule, also for receipt image `src`). Pure; throws DOWNLOAD_FAILED, not
 * retryable, for anything else, since a new attempt would be refused the same way.
 */
export function checkDownloadUrl(text: string, production: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refused(`'${text.slice(0, 200)}' is not a URL`);
  }
  if (isAllowedUrlScheme(url.protocol, production)) return url;
  if (url.protocol === 'http:') {
    throw refused(`${url.origin} is refused: only https URLs are downloaded in production`);
  }
  throw refused(
    `the ${url.protocol.replace(/:$/, '')} scheme is refused: only https (and http outside production) is downloaded`,
  );
}

function refused(message: string): PrintwireError {
  return new PrintwireError('DOWNLOAD_FAILED', message, { retryable: false });
}
