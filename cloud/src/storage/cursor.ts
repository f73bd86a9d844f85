/**
 * Opaque keyset cursors over (createdAt, id), newest first. A cursor names the last row of a
 * page; the next page holds rows strictly older, so rows created meanwhile never shift pages.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { Database } from './schema.js';

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

/** The tables a newest-first page can be read from: they have (createdAt, id). */
export type KeysetTable = {
  [T in keyof Database]: Database[T] extends { createdAt: number; id: string } ? T : never;
}[keyof Database];

/**
 * Orders `query` newest first on (createdAt, id) and keeps the rows after `page.after`, at most
 * `page.limit` of them (ask for one more than a page to learn whether another follows).
 */
export function newestFirst<T extends KeysetTable, O>(
  query: SelectQueryBuilder<Database, T, O>,
  page: { after?: CursorPosition | undefined; limit: number },
): SelectQueryBuilder<Database, T, O> {
  const createdAt = sql.ref<number>('createdAt');
  const id = sql.ref<string>('id');
  let q = query;
  const after = page.after;
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb(createdAt, '<', after.createdAt),
        eb.and([eb(createdAt, '=', after.createdAt), eb(id, '<', after.id)]),
      ]),
    );
  }
  return q.orderBy(createdAt, 'desc').orderBy(id, 'desc').limit(page.limit);
}
