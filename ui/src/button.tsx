/** The button, and the busy state of the action it starts. */
import { useCallback, useRef, useState, type ButtonHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';

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
  const { t } = useTranslation('ui');
  return (
    <button
      type="button"
      className={`button ${variant}`}
      disabled={busy || button.disabled}
      aria-busy={busy || undefined}
      {...button}
    >
      {busy ? (busyLabel ?? t('working')) : children}
    </button>
  );
}

/** What {@link useAction} returns: `mutate()` starts it; the flags say where it is. */
export type Action<T> = { mutate: () => void; reset: () => void } & (
  | { isPending: false; isSuccess: false; isError: false; data: undefined; error: null }
  | { isPending: true; isSuccess: false; isError: false; data: undefined; error: null }
  | { isPending: false; isSuccess: true; isError: false; data: T; error: null }
  | { isPending: false; isSuccess: false; isError: true; data: undefined; error: unknown }
);

type ActionState<T> = Omit<Action<T>, 'mutate' | 'reset'>;
const IDLE = { isPending: false, isSuccess: false, isError: false, data: undefined, error: null };
const PENDING = { ...IDLE, isPending: true } as const;

/**
 * One request a button starts (log in, accept an invitation, revoke a key), without a query cache:
 * the signed-out pages use it so that the login page loads no cache library. `run` and `onSuccess`
 * are read when it starts, so they may close over the form's current values. A second `mutate()`
 * while one is pending is ignored.
 */
export function useAction<T>(
  run: () => Promise<T>,
  options: { onSuccess?: (data: T) => unknown } = {},
): Action<T> {
  const [state, setState] = useState<ActionState<T>>(IDLE as ActionState<T>);
  const latest = useRef({ run, options });
  latest.current = { run, options };
  const pending = useRef(false);
  const mutate = useCallback(() => {
    if (pending.current) return;
    pending.current = true;
    setState(PENDING);
    void (async () => {
      try {
        const data = await latest.current.run();
        await latest.current.options.onSuccess?.(data);
        setState({ ...IDLE, isSuccess: true, data } as ActionState<T>);
      } catch (error) {
        setState({ ...IDLE, isError: true, error } as ActionState<T>);
      } finally {
        pending.current = false;
      }
    })();
  }, []);
  const reset = useCallback(() => setState(IDLE as ActionState<T>), []);
  return { ...state, mutate, reset } as Action<T>;
}
