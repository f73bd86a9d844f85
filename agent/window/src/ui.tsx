/**
 * The window's side of the web base (@printwire/ui): how the agent's errors are said, and the
 * page title in the tab. Pages import the components from here or from @printwire/ui alike.
 */
import { ErrorWordsProvider, PageTitle as Title, type DescribeError } from '@printwire/ui';
import { i18n } from '@printwire/ui/i18n';
import type { ReactNode } from 'react';
import { ApiError } from './api';

export * from '@printwire/ui';

/** The words for an error the agent answered (or a lost connection). */
const describeAgentError: DescribeError = (error) => {
  if (!(error instanceof ApiError)) return i18n.t('errors.connection');
  const key = `errors.codes.${error.code}`;
  if (i18n.exists(key)) return i18n.t(key);
  return error.status >= 500 ? i18n.t('errors.server') : error.message;
};

/** Every FormError and LoadError of the window says the agent's errors this way. */
export function AgentErrorWords({ children }: { children: ReactNode }) {
  return <ErrorWordsProvider describe={describeAgentError}>{children}</ErrorWordsProvider>;
}

/** The page's h1, and "… · Printwire agent" in the tab. */
export function PageTitle({ children }: { children: string }) {
  return <Title site="Printwire agent">{children}</Title>;
}
