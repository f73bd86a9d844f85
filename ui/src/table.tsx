/**
 * A list of resources: a table on a desktop, a card per row on a phone (below 760 px each cell
 * shows its column's name from `data-label`; nothing scrolls sideways at 375 px).
 */
import type { HTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';

/** One column: its header (also each cell's label on a phone) and what a row shows in it. */
export type Column<T> = {
  header: string;
  cell: (row: T) => ReactNode;
  /** A class for the column's cells (`<td>`). */
  className?: string;
};

/**
 * The table. `columns` may hold `false` for a column the viewer may not see; `actions`, when
 * given, adds a last column named "Actions" (a row's buttons, see RowAction); `rowProps` adds
 * attributes to a row (a class, aria-current).
 */
export function ResourceTable<T>({
  rows,
  rowKey,
  columns,
  actions,
  className,
  caption,
  rowProps,
}: {
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: readonly (Column<T> | false | null | undefined)[];
  actions?: ((row: T) => ReactNode) | false | undefined;
  className?: string;
  caption?: string;
  rowProps?: (row: T) => HTMLAttributes<HTMLTableRowElement>;
}) {
  const { t } = useTranslation('ui');
  const shown = columns.filter((c): c is Column<T> => Boolean(c));
  if (actions) shown.push({ header: t('actions'), cell: actions });
  return (
    <table className={className ? `cards ${className}` : 'cards'}>
      {caption && <caption>{caption}</caption>}
      <thead>
        <tr>
          {shown.map((c) => (
            <th scope="col" key={c.header}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowProps?.(row)}>
            {shown.map((c) => (
              <td key={c.header} data-label={c.header} className={c.className}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A row's action: one button whose accessible name says which row it acts on ("Revoke Till 2"). */
export function RowAction({
  label,
  named,
  onClick,
  variant = 'secondary',
}: {
  label: string;
  named: string;
  onClick: () => void;
  variant?: 'secondary' | 'danger';
}) {
  return (
    <Button variant={variant} onClick={onClick} aria-label={named}>
      {label}
    </Button>
  );
}
