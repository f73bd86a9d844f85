/** Migrations of the agent's queue database, applied in order; `user_version` counts them. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE jobs (
     id TEXT PRIMARY KEY,
     agent_printer_id TEXT NOT NULL,
     type TEXT NOT NULL,
     encoding TEXT NOT NULL,
     content TEXT NOT NULL,
     options TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     max_attempts INTEGER NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('queued', 'printing', 'printed', 'failed', 'cancelled')),
     next_attempt_at INTEGER NOT NULL,
     expires_at INTEGER,
     error_code TEXT,
     error_message TEXT,
     created_at TEXT NOT NULL,
     received_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX jobs_due ON jobs (agent_printer_id, state, next_attempt_at);
   CREATE TABLE printed_jobs (job_id TEXT PRIMARY KEY, printed_at INTEGER NOT NULL);
   CREATE TABLE outbox (
     id TEXT PRIMARY KEY,
     job_id TEXT,
     message TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX outbox_job ON outbox (job_id);`,
  // Local mode (1.1.0): jobs a page printed through the local server, their report to the
  // cloud, and the nonces of signed requests (kept across restarts).
  `ALTER TABLE jobs ADD COLUMN source TEXT NOT NULL DEFAULT 'cloud';
   ALTER TABLE jobs ADD COLUMN idempotency_key TEXT;
   ALTER TABLE jobs ADD COLUMN template_id TEXT;
   ALTER TABLE jobs ADD COLUMN metadata TEXT;
   ALTER TABLE jobs ADD COLUMN events TEXT;
   ALTER TABLE jobs ADD COLUMN printed_at INTEGER;
   CREATE UNIQUE INDEX jobs_local_idempotency ON jobs (idempotency_key) WHERE source = 'local';
   CREATE TABLE local_nonces (nonce TEXT PRIMARY KEY, seen_at INTEGER NOT NULL);
   CREATE INDEX local_nonces_seen ON local_nonces (seen_at);`,
  // Printer groups (after 1.1.0): whether a byte of a job may have gone out (set with the printing
  // mark, never cleared), the attempt the cloud dispatched, and the jobs given back to the cloud
  // (job.withdraw) with that attempt, so that a stale dispatch of it is never printed. A job of
  // an older queue that was already tried counts as started: nothing says it was not.
  `ALTER TABLE jobs ADD COLUMN started INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE jobs ADD COLUMN dispatched_attempt INTEGER;
   UPDATE jobs SET started = 1 WHERE state <> 'queued' OR attempt > 1 OR error_code IS NOT NULL;
   CREATE TABLE withdrawn_jobs (
     job_id TEXT PRIMARY KEY,
     attempt INTEGER NOT NULL,
     withdrawn_at INTEGER NOT NULL
   );
   -- Local mode's groups: the group a page's job named, and each round-robin group's last member.
   ALTER TABLE jobs ADD COLUMN printer_group_id TEXT;
   CREATE TABLE group_cursors (group_id TEXT PRIMARY KEY, agent_printer_id TEXT NOT NULL);`,
  // Deliveries (job.dispatch's `delivery`): which dispatch of a job this is, and the one given
  // back, so that a group job moved many times is told apart from a stale re-send without
  // `attempt` (which stops at maxAttempts). Null: the cloud sent none (then `attempt` does).
  `ALTER TABLE jobs ADD COLUMN dispatched_delivery INTEGER;
   ALTER TABLE withdrawn_jobs ADD COLUMN delivery INTEGER;`,
];
