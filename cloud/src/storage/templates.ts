/** Templates of an organization (the dashboard issue adds update and delete). */
import type { Kysely } from 'kysely';
import { PrintwireError } from '@printwire/shared/errors/index';
import { newId } from '../lib/ids.js';
import type { Database } from './schema.js';
import { toTemplate } from './rows.js';
import type { WriteFn } from './organizations.js';
import type { Template } from './types.js';

export interface TemplateLimits {
  /** Templates per organization. Default 200 (spec "Limits"). */
  maxTemplates: number;
  /** Total size of an organization's template contents in bytes. Default 2 MB. */
  maxTotalBytes: number;
}

export const DEFAULT_TEMPLATE_LIMITS: TemplateLimits = {
  maxTemplates: 200,
  maxTotalBytes: 2 * 1024 * 1024,
};

export class TemplatesRepository {
  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    private readonly limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS,
  ) {}

  async create(
    organizationId: string,
    input: { name: string; type: Template['type']; content: string; paper?: string | null },
    now: number,
  ): Promise<Template> {
    return this.write(async (trx) => {
      const existing = await trx
        .selectFrom('templates')
        .select('content')
        .where('organizationId', '=', organizationId)
        .execute();
      if (existing.length >= this.limits.maxTemplates) {
        throw new PrintwireError(
          'VALIDATION_FAILED',
          `an organization has at most ${this.limits.maxTemplates} templates`,
        );
      }
      const total = existing.reduce((sum, t) => sum + Buffer.byteLength(t.content), 0);
      if (total + Buffer.byteLength(input.content) > this.limits.maxTotalBytes) {
        throw new PrintwireError(
          'VALIDATION_FAILED',
          `an organization's templates hold at most ${this.limits.maxTotalBytes} bytes in total`,
        );
      }
      const row = {
        id: newId('tpl', now),
        organizationId,
        name: input.name,
        type: input.type,
        content: input.content,
        paper: input.paper ?? null,
        version: 1,
        createdAt: now,
        updatedAt: now,
      };
      await trx.insertInto('templates').values(row).execute();
      return toTemplate(row);
    });
  }

  async get(organizationId: string, id: string): Promise<Template | undefined> {
    const row = await this.read
      .selectFrom('templates')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toTemplate(row) : undefined;
  }

  /** Every template of the organization (at most maxTemplates), newest first. */
  async list(organizationId: string): Promise<Template[]> {
    const rows = await this.read
      .selectFrom('templates')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toTemplate);
  }

  // Templates: the dashboard's update and delete (TemplatesRepository creates and reads)

  /**
   * Updates a template (version + 1) within the organization's total size. Undefined when there
   * is no template with that id.
   */
  async updateTemplate(
    organizationId: string,
    id: string,
    patch: { name?: string; content?: string; paper?: string | null },
    now: number,
    limits: TemplateLimits = DEFAULT_TEMPLATE_LIMITS,
  ): Promise<Template | undefined> {
    return this.write(async (trx) => {
      const rows = await trx
        .selectFrom('templates')
        .select(['id', 'content', 'version'])
        .where('organizationId', '=', organizationId)
        .execute();
      const current = rows.find((r) => r.id === id);
      if (!current) return undefined;
      if (patch.content !== undefined) {
        const others = rows
          .filter((r) => r.id !== id)
          .reduce((sum, r) => sum + Buffer.byteLength(r.content), 0);
        if (others + Buffer.byteLength(patch.content) > limits.maxTotalBytes) {
          throw new PrintwireError(
            'VALIDATION_FAILED',
            `content: an organization's templates hold at most ${limits.maxTotalBytes} bytes in total`,
            {
              details: [
                {
                  path: 'content',
                  message: `content: over ${limits.maxTotalBytes} bytes in total`,
                },
              ],
            },
          );
        }
      }
      const row = await trx
        .updateTable('templates')
        .set({ ...patch, version: Number(current.version) + 1, updatedAt: now })
        .where('organizationId', '=', organizationId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row ? toTemplate(row) : undefined;
    });
  }

  async deleteTemplate(organizationId: string, id: string): Promise<boolean> {
    return this.write(async (trx) => {
      const r = await trx
        .deleteFrom('templates')
        .where('organizationId', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    });
  }
}
