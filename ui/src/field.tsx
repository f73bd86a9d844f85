/** Form fields: a label above, a hint, and the message for that field under it. */
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

/**
 * `aria-describedby` names only the hint and the error that are there: a reference to an absent
 * id makes some screen readers read nothing at all (the fix that reached one copy of this file).
 */
function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].join(' ').trim() || undefined;
}

function Under({ id, hint, error }: { id: string; hint?: ReactNode; error?: string | undefined }) {
  return (
    <>
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
    </>
  );
}

/** A text input with its label above, a hint, and the error for it under it. */
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
        aria-describedby={describedBy(id, hint, error)}
        {...input}
      />
      <Under id={id} hint={hint} error={error} />
    </div>
  );
}

/** A select with its label above, a hint, and the error for it under it. */
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
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        {...select}
      >
        {children}
      </select>
      <Under id={id} hint={hint} error={error} />
    </div>
  );
}

/** A checkbox with its label beside it and a hint under the label. */
export function Checkbox({
  label,
  hint,
  ...input
}: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="checkbox">
      <input type="checkbox" id={id} aria-describedby={describedBy(id, hint, '')} {...input} />
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
