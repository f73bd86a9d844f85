/** The few shared pieces: field, checkbox, button, form error, load error, status badge. */
import {
  useEffect,
  useId,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api';

/** A label above the field, a hint, and the agent's message for that field under it. */
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
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].join(' ').trim();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
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

/** The words for an error the agent answered (or a lost connection). */
export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return (error) => {
    if (!(error instanceof ApiError)) return t('errors.connection');
    const known = t(`errors.codes.${error.code}`, { defaultValue: '' });
    if (known) return known;
    return error.status >= 500 ? t('errors.server') : error.message;
  };
}

export function FormError({ error }: { error: unknown }) {
  const text = useErrorText();
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {text(error)}
    </p>
  );
}

/** A lost connection or a failure: what happened and Retry, never a blank page. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const text = useErrorText();
  return (
    <div className="notice error" role="alert">
      <p>{text(error)}</p>
      <Button variant="secondary" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </div>
  );
}

export type Tone = 'ok' | 'warn' | 'bad' | 'neutral';

const ICONS: Record<Tone, ReactNode> = {
  ok: <path d="M3 8.5 6.5 12 13 4.5" fill="none" stroke="currentColor" strokeWidth="2" />,
  warn: (
    <path d="M8 2 15 14H1Z M8 6v4 M8 11.5v1" fill="none" stroke="currentColor" strokeWidth="1.6" />
  ),
  bad: <path d="M3.5 3.5l9 9M12.5 3.5l-9 9" fill="none" stroke="currentColor" strokeWidth="2" />,
  neutral: <circle cx="8" cy="8" r="5" fill="none" stroke="currentColor" strokeWidth="1.8" />,
};

/** An icon that goes with a word (never colour alone). */
export function ToneIcon({ tone }: { tone: Tone }) {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      {ICONS[tone]}
    </svg>
  );
}

/** A status in words with an icon and a colour. */
export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <span className={`badge ${tone === 'neutral' ? '' : tone}`}>
      <ToneIcon tone={tone} />
      {children}
    </span>
  );
}

export function PageTitle({ children }: { children: string }) {
  useEffect(() => {
    document.title = `${children} · Printwire agent`;
  }, [children]);
  return <h1>{children}</h1>;
}

export function Loading() {
  const { t } = useTranslation();
  return (
    <p className="hint" role="status">
      {t('common.loading')}
    </p>
  );
}
