/**
 * Opaque keyset cursors over (createdAt, id), newest first. A cursor names the last row of a
 * page; the next page holds rows strictly older, so rows created meanwhile never shift pages.
 */
import { PrintwireError } from '@printwire/shared/errors/index';

export interface CursorPosition {
  createdAt: number;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt}:${position.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(\d{1,16}):([A-Za-z0-9_]{1,64})$/.exec(text);
  if (!match) {
    throw new PrintwireError('VALIDATION_FAILED', 'cursor: not a cursor this API returned', {
      details: [{ path: 'cursor', message: 'cursor: not a cursor this API returned' }],
    });
  }
  return { createdAt: Number(match[1]), id: match[2]! };
}

/** Splits a `limit + 1` fetch into a page and the cursor of its last row. */
export function toPage<Row extends CursorPosition, T>(
  rows: Row[],
  limit: number,
  map: (row: Row) => T,
): { data: T[]; nextCursor: string | null } {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(map),
    nextCursor: more && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}
