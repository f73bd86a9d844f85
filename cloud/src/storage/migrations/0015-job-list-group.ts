/**
 * An index for the job list filtered by printer group (`GET /v1/jobs?printerGroupId=`, the
 * dashboard's "Jobs of this group"): the list is one organization's jobs of one mode, newest
 * first. Without it the list either walks `jobs_list` (every job of the organization, for a
 * group that takes few of them) or reads `jobs_group_state` (no mode, state before created_at)
 * and sorts all the group's jobs for each page; with it a page is one range, read in order.
 */
import type { Kysely, Migration } from 'kysely';

export function jobListGroupMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('jobs_list_group')
        .on('jobs')
        .columns(['organization_id', 'mode', 'printer_group_id', 'created_at', 'id'])
        .execute();
    },
  };
}
