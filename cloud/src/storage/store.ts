/**
 * The storage layer: the only place with SQL. `Store.open` picks SQLite or PostgreSQL from the
 * URL, runs migrations, and hands out one repository per area. Writes go through `write`, which
 * on SQLite batches concurrent transactions into one durable commit (group commit).
 */
import { sql, type Transaction } from 'kysely';
import { AccountsRepository } from './accounts.js';
import { MembersRepository } from './members.js';
import { TwoFactorRepository } from './two-factor.js';
import { openDatabase, type OpenedDatabase, type OpenOptions } from './db.js';
import { DevicesRepository } from './devices.js';
import { GroupCommitter, type WriteOptions } from './group-commit.js';
import { InventoryRepository } from './inventory.js';
import { JobsRepository, type JobsRepositoryOptions } from './jobs.js';
import { MailOutbox } from './mail-outbox.js';
import type { Dialect } from './dialect.js';
import { migrateToLatest } from './migrations.js';
import { OrganizationsRepository } from './organizations.js';
import { PrinterGroupsRepository } from './printer-groups.js';
import { SigningKeysRepository } from './signing-keys.js';
import type { Database } from './schema.js';
import { TemplatesRepository, type TemplateLimits } from './templates.js';
import { WebhookOutbox } from './webhook-outbox.js';
import { WebhooksRepository } from './webhooks.js';

export interface StoreOptions extends OpenOptions {
  /** Run migrations on open. Default true. */
  migrate?: boolean;
  jobs?: JobsRepositoryOptions;
  templates?: TemplateLimits;
}

export class Store {
  readonly dialect: Dialect;
  readonly organizations: OrganizationsRepository;
  readonly inventory: InventoryRepository;
  readonly jobs: JobsRepository;
  readonly templates: TemplatesRepository;
  readonly signingKeys: SigningKeysRepository;
  readonly accounts: AccountsRepository;
  readonly twoFactor: TwoFactorRepository;
  readonly members: MembersRepository;
  readonly devices: DevicesRepository;
  readonly printerGroups: PrinterGroupsRepository;
  readonly webhooks: WebhooksRepository;
  /** E-mails written with the changes they follow; the mail sender sends them. */
  readonly mailOutbox: MailOutbox;
  private readonly committer: GroupCommitter | undefined;
  private readonly schema: string | undefined;

  private constructor(
    private readonly db: OpenedDatabase,
    options: StoreOptions,
  ) {
    this.dialect = db.dialect;
    this.schema = options.schema;
    this.committer =
      db.dialect === 'sqlite'
        ? new GroupCommitter(db.writer, {
            ...(db.syncWal ? { afterCommit: db.syncWal } : {}),
            ...(db.nativeWriter ? { native: db.nativeWriter } : {}),
            ...(db.checkpointer
              ? { beforeBatch: db.checkpointer.beforeBatch.bind(db.checkpointer) }
              : {}),
          })
        : undefined;
    const write = this.write.bind(this);
    const outbox = new WebhookOutbox(db.reader, write, db.dialect);
    this.mailOutbox = new MailOutbox(db.reader, write, db.dialect);
    this.organizations = new OrganizationsRepository(db.reader, write);
    this.inventory = new InventoryRepository(db.reader, write);
    this.jobs = new JobsRepository(db.reader, write, options.jobs, outbox);
    this.templates = new TemplatesRepository(db.reader, write, options.templates);
    this.signingKeys = new SigningKeysRepository(db.reader, write);
    this.accounts = new AccountsRepository(db.reader, write, this.mailOutbox);
    this.twoFactor = new TwoFactorRepository(write);
    this.members = new MembersRepository(db.reader, write, this.mailOutbox);
    this.devices = new DevicesRepository(db.reader, write, outbox);
    this.printerGroups = new PrinterGroupsRepository(db.reader, write, outbox);
    this.webhooks = new WebhooksRepository(db.reader, write, outbox, this.mailOutbox);
  }

  static async open(options: StoreOptions): Promise<Store> {
    const db = openDatabase(options);
    try {
      if (options.migrate !== false) await migrateToLatest(db.raw, db.dialect, options.schema);
    } catch (error) {
      await db.close();
      throw error;
    }
    return new Store(db, options);
  }

  /**
   * Runs `fn` in a write transaction; resolves after the commit is durable (with
   * `durable: false`, after the commit: see `WriteOptions`). On SQLite `fn` may be run twice (its
   * batch failed because of another unit): it must not have effects outside `trx`.
   */
  write<T>(fn: (trx: Transaction<Database>) => Promise<T>, options?: WriteOptions): Promise<T> {
    if (this.committer) return this.committer.run(fn, options);
    if (options?.durable === false) {
      // PostgreSQL's own form of the same promise: the commit does not wait for the WAL flush.
      return this.db.writer.transaction().execute(async (trx) => {
        await sql`set local synchronous_commit = off`.execute(trx);
        return fn(trx);
      });
    }
    return this.db.writer.transaction().execute(fn);
  }

  async migrate(): Promise<{ applied: string[] }> {
    return migrateToLatest(this.db.raw, this.db.dialect, this.schema);
  }

  /** Throws when the database does not answer. */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db.reader);
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
