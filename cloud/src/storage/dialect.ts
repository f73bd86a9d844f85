/** The SQL database under the store: SQLite (one instance) or PostgreSQL (several). */
export type Dialect = 'sqlite' | 'postgres';
