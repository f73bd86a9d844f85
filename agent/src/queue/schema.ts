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
];
