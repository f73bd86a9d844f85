/** Dialogs: the browser's own <dialog> (focus stays inside, Escape closes it). */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, useAction } from './button';
import { FormError, type ErrorWords } from './errors';

/** A modal dialog, open while mounted; `onClose` runs on Escape and on Cancel. */
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
  const { t } = useTranslation('ui');
  const confirm = useAction(run, {
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
          {t('cancel')}
        </Button>
        <Button variant="danger" busy={confirm.isPending} onClick={() => confirm.mutate()}>
          {action}
        </Button>
      </div>
    </Dialog>
  );
}
