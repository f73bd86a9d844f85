/**
 * Signing keys of local mode: the public halves of an organization's Ed25519 key pairs, which
 * every agent of the organization receives to verify signed local requests. Revoking keeps the
 * row (with revokedAt) so that the list shows what was revoked and when.
 */
import type { Kysely, Selectable } from 'kysely';
import { PrintwireError } from '@printwire/shared/errors/index';
import { newId } from '../lib/ids.js';
import type { WriteFn } from './organizations.js';
import type { Database, SigningKeysTable } from './schema.js';
import type { SigningKey } from './types.js';

function toSigningKey(row: Selectable<SigningKeysTable>): SigningKey {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    algorithm: 'Ed25519',
    publicKey: row.publicKey,
    createdAt: Number(row.createdAt),
    revokedAt: row.revokedAt === null ? null : Number(row.revokedAt),
  };
}

export class SigningKeysRepository {
  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
  ) {}

  /** Stores a new key; CONFLICT when the organization already has `maxActive` active keys. */
  async create(
    organizationId: string,
    input: { name: string; publicKey: string },
    now: number,
    maxActive: number,
  ): Promise<SigningKey> {
    return this.write(async (trx) => {
      const { count } = await trx
        .selectFrom('signingKeys')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('organizationId', '=', organizationId)
        .where('revokedAt', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(count) >= maxActive) {
        throw new PrintwireError(
          'CONFLICT',
          `an organization has at most ${maxActive} active signing keys: revoke one first`,
        );
      }
      const row = {
        id: newId('sk', now),
        organizationId,
        name: input.name,
        algorithm: 'Ed25519',
        publicKey: input.publicKey,
        createdAt: now,
        revokedAt: null,
      };
      await trx.insertInto('signingKeys').values(row).execute();
      return toSigningKey(row);
    });
  }

  /** Every key of the organization, revoked ones included, newest first. */
  async list(organizationId: string): Promise<SigningKey[]> {
    const rows = await this.read
      .selectFrom('signingKeys')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toSigningKey);
  }

  /** The keys agents accept, oldest first. */
  async listActive(organizationId: string): Promise<SigningKey[]> {
    const rows = await this.read
      .selectFrom('signingKeys')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('revokedAt', 'is', null)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
    return rows.map(toSigningKey);
  }

  /** False when the organization has no active key with that id. */
  async revoke(organizationId: string, id: string, now: number): Promise<boolean> {
    return this.write(async (trx) => {
      const result = await trx
        .updateTable('signingKeys')
        .set({ revokedAt: now })
        .where('organizationId', '=', organizationId)
        .where('id', '=', id)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }
}
