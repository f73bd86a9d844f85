/**
 * The dashboard's side of the web base (@printwire/ui): how an API error is said, and the words
 * of a field the API names. Pages import the components from here or from @printwire/ui alike.
 */
import { ErrorWordsProvider, type DescribeError } from '@printwire/ui';
import { i18n } from '@printwire/ui/i18n';
import type { ReactNode } from 'react';
import { ApiError } from './api/client';

export * from '@printwire/ui';

/**
 * An API error in the user's language: the page's own words for the codes it expects (`codes`),
 * else the catalog's words for the code, else the API's English message.
 */
const describeApiError: DescribeError = (error, codes) => {
  if (!(error instanceof ApiError)) return i18n.t('errors.connection');
  if (error.status >= 500) return i18n.t('errors.server');
  const own = codes?.[error.code];
  if (own) return own;
  if (error.details.length > 0) return i18n.t('errors.checkFields');
  const key = `errors.codes.${error.code}`;
  return i18n.exists(key) ? i18n.t(key, { seconds: error.retryAfterSeconds ?? 60 }) : error.message;
};

/** Every FormError and LoadError of the app says API errors this way. */
export function ApiErrorWords({ children }: { children: ReactNode }) {
  return <ErrorWordsProvider describe={describeApiError}>{children}</ErrorWordsProvider>;
}

/**
 * The API's words for `field`, when `error` names it: the rule it broke in the user's language
 * (`errors.rules.min_length`), else the API's English message without its leading "field: ".
 */
export function fieldError(error: unknown, field: string): string | undefined {
  const issue = error instanceof ApiError ? error.field(field) : undefined;
  if (!issue) return undefined;
  const key = `errors.rules.${issue.rule ?? ''}`;
  if (issue.rule && i18n.exists(key)) return i18n.t(key, issue.params ?? {});
  return issue.message.replace(new RegExp(`^${field}: `), '');
}
