/**
 * Errors in the user's language. Which words an error gets is the app's business (the dashboard
 * reads the API's error body, the window the agent's): the app says it once, through
 * <ErrorWordsProvider>, and every FormError and LoadError below uses it.
 */
import { createContext, useContext, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';

/** A page's words for the error codes an action may answer (`{ CONFLICT: t('…') }`). */
export type ErrorWords = Partial<Record<string, string>>;

/** Turns an error (and a page's own words for some codes) into one sentence. */
export type DescribeError = (error: unknown, codes?: ErrorWords) => string;

const Describe = createContext<DescribeError>((error) =>
  error instanceof Error ? error.message : String(error),
);

/** Sets how the app says its errors, for everything under it. */
export function ErrorWordsProvider({
  describe,
  children,
}: {
  describe: DescribeError;
  children: ReactNode;
}) {
  return <Describe.Provider value={describe}>{children}</Describe.Provider>;
}

/** The app's describer; the component that calls it re-renders when the language changes. */
export function useErrorText(): DescribeError {
  useTranslation();
  return useContext(Describe);
}

/** The error of a form that names no field (or a lost connection). */
export function FormError({ error, codes }: { error: unknown; codes?: ErrorWords }) {
  const say = useErrorText();
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {say(error, codes)}
    </p>
  );
}

/** A lost connection or a 5xx: what happened and Retry, never a blank page. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('ui');
  const say = useErrorText();
  return (
    <div className="notice error" role="alert">
      <p>{say(error)}</p>
      <Button variant="secondary" onClick={onRetry}>
        {t('retry')}
      </Button>
    </div>
  );
}

/**
 * A query's content. When a refetch fails (a lost connection or a 5xx) after data was shown, the
 * last data stays, greyed and marked busy, under the message and Retry: never a blank page, and
 * nothing in it (a form being filled, a key shown once) is lost. The wrapper is always there, so
 * React keeps its children's state across the failure.
 */
export function LastData({
  query,
  children,
}: {
  query: { isError: boolean; error: unknown; refetch: () => unknown };
  children: ReactNode;
}) {
  return (
    <>
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      <div
        className={query.isError ? 'last-data stale' : 'last-data'}
        aria-busy={query.isError || undefined}
      >
        {children}
      </div>
    </>
  );
}
