/** The few shared pieces: field, button, dialog, secret box, load error, page title. */
import {
  useEffect,
  useId,
  useRef,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
} from 'react';
import { useMutation } from '@tanstack/react-query';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api/client';

/** A label above the field, a hint, and the API's message for that field under it. */
export function Field({
  label,
  hint,
  error,
  ...input
}: {
  label: string;
  hint?: string;
  error?: string | undefined;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint ${id}-error`}
        {...input}
      />
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function SelectField({
  label,
  hint,
  error,
  children,
  ...select
}: {
  label: string;
  hint?: string;
  error?: string | undefined;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...select}>
        {children}
      </select>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function Checkbox({
  label,
  hint,
  ...input
}: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="checkbox">
      <input
        type="checkbox"
        id={id}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...input}
      />
      <div>
        <label htmlFor={id}>{label}</label>
        {hint && (
          <p className="hint" id={`${id}-hint`}>
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}

/** A button that says what it does; while busy it says so and cannot be pressed twice. */
export function Button({
  busy,
  busyLabel,
  variant = 'primary',
  children,
  ...button
}: {
  busy?: boolean;
  busyLabel?: string;
  variant?: 'primary' | 'secondary' | 'danger';
} & ButtonHTMLAttributes<HTMLButtonElement>) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={`button ${variant}`}
      disabled={busy || button.disabled}
      aria-busy={busy || undefined}
      {...button}
    >
      {busy ? (busyLabel ?? t('common.working')) : children}
    </button>
  );
}

/**
 * An API error in the user's language: the page's own words for the codes it expects (`codes`),
 * else the catalog's words for the code, else the API's English message.
 */
function useErrorMessage(): (error: unknown, codes?: ErrorWords) => string {
  const { t, i18n } = useTranslation();
  return (error, codes) => {
    if (!(error instanceof ApiError)) return t('errors.connection');
    if (error.status >= 500) return t('errors.server');
    const own = codes?.[error.code];
    if (own) return own;
    if (error.details.length > 0) return t('errors.checkFields');
    const key = `errors.codes.${error.code}`;
    return i18n.exists(key) ? t(key, { seconds: error.retryAfterSeconds ?? 60 }) : error.message;
  };
}

/** A page's words for the error codes an action may answer (`{ CONFLICT: t('…') }`). */
export type ErrorWords = Partial<Record<string, string>>;

/** The error of a form that names no field (or a lost connection). */
export function FormError({ error, codes }: { error: unknown; codes?: ErrorWords }) {
  const say = useErrorMessage();
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {say(error, codes)}
    </p>
  );
}

/**
 * The API's words for `field`, when `error` names it: the rule it broke in the user's language
 * (`errors.rules.min_length`), else the API's English message without its leading "field: ".
 */
export function fieldError(error: unknown, field: string): string | undefined {
  const issue = error instanceof ApiError ? error.field(field) : undefined;
  if (!issue) return undefined;
  const key = `errors.rules.${issue.rule ?? ''}`;
  if (issue.rule && i18next.exists(key)) return i18next.t(key, issue.params ?? {});
  return issue.message.replace(new RegExp(`^${field}: `), '');
}

/** A lost connection or a 5xx: what happened and Retry, never a blank page. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const say = useErrorMessage();
  return (
    <div className="notice error" role="alert">
      <p>{say(error)}</p>
      <Button variant="secondary" onClick={onRetry}>
        {t('common.retry')}
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

/**
 * A modal dialog (the browser's own <dialog>: focus stays inside, Escape closes it). Open while
 * mounted; `onClose` runs on Escape and on Cancel.
 */
export function Dialog({
  title,
  children,
  onClose,
}: {
  title: string;
  children: ReactNode;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

/**
 * Asks once before a destructive action, naming what goes (DESIGN.md): Cancel, or the action's
 * words on a danger button that is busy while `run` works. After it, `onDone` (invalidate what
 * changed), then the dialog closes; a refusal is said in it, in the page's words (`codes`).
 */
export function ConfirmDialog({
  title,
  message,
  action,
  run,
  onDone,
  onClose,
  codes,
}: {
  title: string;
  message: string;
  action: string;
  run: () => Promise<unknown>;
  onDone: () => Promise<unknown>;
  onClose: () => void;
  codes?: ErrorWords;
}) {
  const { t } = useTranslation();
  const confirm = useMutation({
    mutationFn: run,
    onSuccess: async () => {
      await onDone();
      onClose();
    },
  });
  return (
    <Dialog title={title} onClose={onClose}>
      <p>{message}</p>
      <FormError error={confirm.error} codes={codes} />
      <div className="actions">
        <Button variant="secondary" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button variant="danger" busy={confirm.isPending} onClick={() => confirm.mutate()}>
          {action}
        </Button>
      </div>
    </Dialog>
  );
}

/** The Actions cell of a row: one button whose accessible name says which row it acts on. */
export function ActionCell({
  label,
  named,
  onClick,
}: {
  label: string;
  named: string;
  onClick: () => void;
}) {
  const { t } = useTranslation();
  return (
    <td data-label={t('common.actions')}>
      <Button variant="secondary" onClick={onClick} aria-label={named}>
        {label}
      </Button>
    </td>
  );
}

/** A secret shown once: the value, Copy (and Download), and the sentence that says so. */
export function SecretBox({
  label,
  value,
  downloadName,
}: {
  label: string;
  value: string;
  downloadName?: string;
}) {
  const { t } = useTranslation();
  const copied = useRef<HTMLSpanElement>(null);
  const copy = async () => {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    if (copied.current) copied.current.textContent = t('common.copied');
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${value}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = downloadName ?? 'printwire.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="secret">
      <p className="secret-label">{label}</p>
      <pre tabIndex={0} aria-label={label}>
        {value}
      </pre>
      <p className="hint">{t('common.shownOnce')}</p>
      <div className="actions">
        <Button variant="secondary" onClick={() => void copy()}>
          {t('common.copy')}
        </Button>
        {downloadName && (
          <Button variant="secondary" onClick={download}>
            {t('common.download')}
          </Button>
        )}
        <span ref={copied} role="status" className="hint" />
      </div>
    </div>
  );
}

export function PageTitle({ children, lead }: { children: ReactNode; lead?: ReactNode }) {
  useEffect(() => {
    if (typeof children === 'string') document.title = `${children} · Printwire`;
  }, [children]);
  return (
    <header className="page-title">
      <h1>{children}</h1>
      {lead && <p className="lead">{lead}</p>}
    </header>
  );
}

export function Loading() {
  const { t } = useTranslation();
  return (
    <p className="loading" role="status">
      {t('common.loading')}
    </p>
  );
}
