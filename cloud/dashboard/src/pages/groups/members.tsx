/**
 * A group's members in order, each with its live status (never by colour alone): read-only in the
 * list of groups, with Move up / Move down / Remove in the editor. The buttons name the printer
 * they act on, and after a move the focus stays on the moved printer's button, so a keyboard
 * user can press it again; a status line says where the printer now stands.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui';
import type { Printer } from '../printers/data';
import { PrinterStatus } from '../printers/status';
import { moved } from './data';

/** The name a shop gave a printer (its alias), else the agent's; a removed printer by its id. */
export const printerName = (printer: Printer | undefined, id: string) =>
  printer ? (printer.alias ?? printer.name) : id;

function Member({ id, printer }: { id: string; printer: Printer | undefined }) {
  const { t } = useTranslation();
  return (
    <span className="member">
      <span className="member-name" dir="auto">
        {printerName(printer, id)}
      </span>
      {printer ? (
        <PrinterStatus status={printer.status} />
      ) : (
        <span className="hint">{t('groups.members.gone')}</span>
      )}
    </span>
  );
}

/** The members in order, with their status (the list of groups). */
export function MemberList({
  printerIds,
  printers,
}: {
  printerIds: readonly string[];
  printers: ReadonlyMap<string, Printer>;
}) {
  return (
    <ol className="group-members">
      {printerIds.map((id) => (
        <li key={id}>
          <Member id={id} printer={printers.get(id)} />
        </li>
      ))}
    </ol>
  );
}

type Direction = 'up' | 'down';

/** The members in order with the buttons that reorder and remove them (the editor). */
export function MemberOrder({
  printerIds,
  printers,
  onChange,
}: {
  printerIds: readonly string[];
  printers: ReadonlyMap<string, Printer>;
  onChange: (printerIds: string[]) => void;
}) {
  const { t } = useTranslation();
  const list = useRef<HTMLOListElement>(null);
  const [focus, setFocus] = useState<{ id: string; direction: Direction }>();
  const [said, setSaid] = useState('');
  // After a removal the focus goes to the Remove button now at that place, not to the page.
  const [removedAt, setRemovedAt] = useState<number>();
  useEffect(() => {
    if (removedAt === undefined) return;
    const left = list.current?.querySelectorAll<HTMLButtonElement>('[data-remove]');
    if (left && left.length > 0) left[Math.min(removedAt, left.length - 1)]!.focus();
    setRemovedAt(undefined);
  }, [removedAt, printerIds]);
  useEffect(() => {
    if (!focus) return;
    const index = printerIds.indexOf(focus.id);
    // At the top or bottom that button is gone: the other one of the same printer takes focus.
    const direction =
      (focus.direction === 'up' && index === 0) ||
      (focus.direction === 'down' && index === printerIds.length - 1)
        ? focus.direction === 'up'
          ? 'down'
          : 'up'
        : focus.direction;
    list.current
      ?.querySelector<HTMLButtonElement>(`[data-move="${CSS.escape(`${focus.id}:${direction}`)}"]`)
      ?.focus();
    setFocus(undefined);
  }, [focus, printerIds]);
  const move = (index: number, direction: Direction) => {
    const id = printerIds[index]!;
    const next = moved(printerIds, index, direction === 'up' ? -1 : 1);
    onChange(next);
    setFocus({ id, direction });
    setSaid(
      t('groups.members.movedTo', {
        name: printerName(printers.get(id), id),
        position: next.indexOf(id) + 1,
        count: next.length,
      }),
    );
  };
  const remove = (index: number) => {
    const id = printerIds[index]!;
    onChange(printerIds.filter((_, i) => i !== index));
    setRemovedAt(index);
    setSaid(t('groups.members.removed', { name: printerName(printers.get(id), id) }));
  };
  return (
    <>
      <ol className="group-members editable" ref={list}>
        {printerIds.map((id, index) => {
          const name = printerName(printers.get(id), id);
          return (
            <li key={id}>
              <span className="position" aria-hidden="true">
                {index + 1}
              </span>
              <Member id={id} printer={printers.get(id)} />
              <span className="member-actions">
                {index > 0 && (
                  <Button
                    className="button secondary move-up"
                    data-move={`${id}:up`}
                    aria-label={t('groups.members.moveUpNamed', { name })}
                    onClick={() => move(index, 'up')}
                  >
                    <Arrow direction="up" /> {t('groups.members.moveUp')}
                  </Button>
                )}
                {index < printerIds.length - 1 && (
                  <Button
                    className="button secondary move-down"
                    data-move={`${id}:down`}
                    aria-label={t('groups.members.moveDownNamed', { name })}
                    onClick={() => move(index, 'down')}
                  >
                    <Arrow direction="down" /> {t('groups.members.moveDown')}
                  </Button>
                )}
                <Button
                  className="button secondary remove"
                  data-remove
                  aria-label={t('groups.members.removeNamed', { name })}
                  onClick={() => remove(index)}
                >
                  {t('groups.members.remove')}
                </Button>
              </span>
            </li>
          );
        })}
      </ol>
      <p className="hint" role="status">
        {said}
      </p>
    </>
  );
}

function Arrow({ direction }: { direction: Direction }) {
  return (
    <svg aria-hidden="true" width="12" height="12" viewBox="0 0 12 12" className="arrow">
      <path d={direction === 'up' ? 'M6 2 L11 8 H1 Z' : 'M6 10 L11 4 H1 Z'} fill="currentColor" />
    </svg>
  );
}
