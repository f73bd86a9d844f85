import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import pino, { type Logger } from 'pino';
import { MemoryBus } from '../bus/memory.js';
import type { InventoryChanged } from '../bus/events.js';
import { ManualClock } from '../lib/clock.js';
import { SANDBOX_PRINTERS } from '../sandbox/printers.js';
import type { MailMessage } from '../storage/mail-outbox.js';
import { Store } from '../storage/store.js';
import {
  storePerSuite,
  storeKinds,
  testDatabase,
  twoInstancesPerSuite,
} from '../testing/stores.js';
import { MailSender, mailRetryDelay, type MailSenderOptions } from './sender.js';
import { WebhookService } from '../webhooks/service.js';
import type { Mailer } from './mailer.js';

const SECOND = 1000;
const MIN = 60 * SECOND;
const HOUR = 60 * MIN;
const silent = pino({ level: 'silent' });

type Sent = { to: string; subject: string; text: string; html?: string };

/** A mailer that records what it sent; `fail` decides, per call, to throw instead. */
class RecordingMailer implements Mailer {
  readonly sent: Sent[] = [];
  calls = 0;

  constructor(
    private readonly fail: (call: number) => Error | undefined = () => undefined,
    /** Yields to the event loop before answering, as a mail server's round trip does. */
    private readonly yieldFirst = false,
  ) {}

  async send(message: Sent): Promise<void> {
    const call = this.calls++;
    if (this.yieldFirst) await new Promise((resolve) => setImmediate(resolve));
    const error = this.fail(call);
    if (error) throw error;
    const { to, subject, text, html } = message;
    this.sent.push({ to, subject, text, ...(html !== undefined ? { html } : {}) });
  }
}

/** A logger whose lines (warn and above) land in `lines`. */
function capturingLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'warn' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

const suffix = () => randomBytes(6).toString('hex');

/** An organization whose owners are `owners` (and one admin, who is not mailed). */
async function organization(store: Store, owners: string[], now: number): Promise<string> {
  const org = (await store.organizations.create({ name: 'Shop' }, now, SANDBOX_PRINTERS)).id;
  await store.write(async (trx) => {
    const people = [
      ...owners.map((email) => ({ email, role: 'owner' })),
      { email: `admin-${suffix()}@example.com`, role: 'admin' },
    ];
    for (const { email, role } of people) {
      const id = `usr_${suffix()}`;
      await trx
        .insertInto('users')
        .values({ id, email, name: email, passwordHash: 'x', emailVerifiedAt: now, createdAt: now })
        .execute();
      await trx
        .insertInto('memberships')
        .values({ organizationId: org, userId: id, role, createdAt: now })
        .execute();
    }
  });
  return org;
}

const offline = (organizationId: string, deviceId: string, at: number): InventoryChanged => ({
  type: 'device.offline',
  organizationId,
  deviceId,
  printerId: null,
  at: new Date(at).toISOString(),
  resource: { id: deviceId },
});

// Awaited before the first test is declared: a test declared at the top level starts at once, and
// the runner ends the file when it is over, before suites declared after an await are reached.
const kinds = await storeKinds();

test('the retry delay doubles from 30 s up to 1 h; 30 attempts span about a day', () => {
  const o = { retryBaseMs: 30 * SECOND, retryMaxMs: HOUR };
  assert.deepEqual(
    [1, 2, 3, 7, 8, 9, 29].map((n) => mailRetryDelay(n, o)),
    [30 * SECOND, MIN, 2 * MIN, 32 * MIN, HOUR, HOUR, HOUR],
  );
  let total = 0;
  for (let n = 1; n < 30; n++) total += mailRetryDelay(n, o);
  assert.ok(total > 22 * HOUR && total < 24 * HOUR, `${total / HOUR} h`);
});

for (const { kind, skip } of kinds) {
  describe(`mail sender on ${kind}`, { skip }, () => {
    test('an alert e-mail committed before a crash is sent once to each owner after the restart', async () => {
      const db = await testDatabase(kind);
      const clock = new ManualClock(Date.parse('2026-03-10T10:00:00.000Z'));
      const owners = [`o1-${suffix()}@example.com`, `o2-${suffix()}@example.com`].sort();
      try {
        // Before the crash: the alert opens; the cloud dies before any e-mail is sent (the
        // sender is never started: the crash comes right after the commit).
        const before = await db.open();
        const never = new RecordingMailer();
        const first = new WebhookService({
          store: before,
          bus: new MemoryBus(),
          clock,
          logger: silent,
          mailer: never,
        });
        const org = await organization(before, owners, clock.now());
        await first.alerts.createRule(org, { kind: 'device_offline', channels: ['email'] });
        first.alerts.accept(offline(org, 'dev_1', clock.now()));
        await first.alerts.settled();
        assert.equal((await first.alerts.listAlerts(org, 10)).length, 1, 'the alert committed');
        assert.equal(await before.mailOutbox.size(), 2, 'with one e-mail per owner');
        await before.close();
        assert.equal(never.calls, 0);

        // After the restart: the sender looks at start and sends them, once.
        const store = await db.open();
        const mailer = new RecordingMailer();
        const second = new WebhookService({
          store,
          bus: new MemoryBus(),
          clock,
          logger: silent,
          mailer,
        });
        try {
          await second.start();
          await second.mail!.idle(); // the look at start
          assert.equal(mailer.sent.length, 2);
          await second.mail!.drain();
        } finally {
          await second.stop();
        }
        assert.deepEqual(
          mailer.sent.map((m) => m.to).sort(),
          owners,
          'each owner once, the admin not',
        );
        for (const m of mailer.sent) {
          assert.match(m.subject, /^Printwire alert opened: device_offline \(dev_1\)$/);
          assert.match(m.text, /^alert\.opened: device_offline for dev_1 at /);
        }
        assert.equal(mailer.calls, 2);
        assert.equal(await store.mailOutbox.size(), 0);
        await store.close();
      } finally {
        await db.cleanup();
      }
    });

    describe('retries', () => {
      let store: Store;
      storePerSuite(kind, (opened) => {
        store = opened;
      });

      function sender(
        clock: ManualClock,
        mailer: Mailer,
        logger: Logger,
        options: Partial<MailSenderOptions> = {},
      ): MailSender {
        return new MailSender({ store, clock, logger, mailer, options });
      }

      const message = (organizationId: string, to: string): MailMessage => ({
        organizationId,
        to,
        subject: 'Printwire alert opened',
        text: 'details',
      });

      test('a mailer that fails twice, then succeeds: one e-mail, the row gone, each attempt recorded on the backoff schedule', async () => {
        const clock = new ManualClock(Date.parse('2026-03-10T10:00:00.000Z'));
        const mailer = new RecordingMailer((call) =>
          call < 2 ? new Error(`421 service not available (${call + 1})`) : undefined,
        );
        const { logger, lines } = capturingLogger();
        const mail = sender(clock, mailer, logger);
        const org = await organization(store, [], clock.now());
        await store.mailOutbox.enqueue([message(org, 'owner@example.com')], clock.now());

        await mail.drain();
        assert.equal(mailer.calls, 1);
        let [row] = await store.mailOutbox.pending();
        assert.equal(row!.attempts, 1);
        assert.equal(row!.lastError, '421 service not available (1)');
        assert.equal(row!.nextAttemptAt, clock.now() + 30 * SECOND);

        await mail.drain();
        clock.advance(30 * SECOND - 1);
        await mail.drain();
        assert.equal(mailer.calls, 1, 'not before its 30 s');
        clock.advance(1);
        await mail.drain();
        assert.equal(mailer.calls, 2);
        [row] = await store.mailOutbox.pending();
        assert.equal(row!.attempts, 2);
        assert.equal(row!.lastError, '421 service not available (2)');
        assert.equal(row!.nextAttemptAt, clock.now() + MIN, 'the wait doubled');

        clock.advance(MIN - 1);
        await mail.drain();
        assert.equal(mailer.calls, 2);
        clock.advance(1);
        await mail.drain();
        assert.equal(mailer.calls, 3);
        assert.deepEqual(mailer.sent, [
          { to: 'owner@example.com', subject: 'Printwire alert opened', text: 'details' },
        ]);
        assert.equal(await store.mailOutbox.size(), 0, 'deleted once sent');
        clock.advance(HOUR);
        await mail.drain();
        assert.equal(mailer.calls, 3, 'never sent again');
        assert.deepEqual(
          lines.map((l) => [l.msg, l.attempts]),
          [
            ['mail: sending failed; it will be retried', 1],
            ['mail: sending failed; it will be retried', 2],
          ],
        );
      });

      test('a message whose attempts are spent is dropped with an error line, as is one whose last attempt never finished', async () => {
        const clock = new ManualClock(Date.parse('2026-03-11T10:00:00.000Z'));
        const mailer = new RecordingMailer(() => new Error('connection refused'));
        const { logger, lines } = capturingLogger();
        const mail = sender(clock, mailer, logger, { maxAttempts: 3 });
        const org = await organization(store, [], clock.now());
        await store.mailOutbox.enqueue([message(org, 'gone@example.com')], clock.now());
        await mail.drain();
        clock.advance(30 * SECOND);
        await mail.drain();
        clock.advance(MIN);
        await mail.drain();
        assert.equal(mailer.calls, 3);
        assert.equal(await store.mailOutbox.size(), 0, 'dropped after the third failure');
        const dropped = lines.filter((l) => l.level === 50);
        assert.equal(dropped.length, 1);
        assert.equal(dropped[0]!.msg, 'mail: dropped after 3 failed attempts');
        assert.equal(dropped[0]!.to, 'gone@example.com');
        assert.equal(dropped[0]!.error, 'connection refused');
        clock.advance(24 * HOUR);
        await mail.drain();
        assert.equal(mailer.calls, 3, 'never retried again');

        // A sender died during the last attempt: after the lease, the message is dropped unsent.
        const single = sender(clock, mailer, logger, { maxAttempts: 1 });
        await store.mailOutbox.enqueue([message(org, 'cut@example.com')], clock.now());
        const [claimed] = await store.mailOutbox.claimDue(clock.now(), 10, 15 * MIN);
        assert.equal(claimed!.attempts, 1);
        await single.drain();
        assert.equal(mailer.calls, 3, 'leased: nobody else takes it');
        clock.advance(15 * MIN);
        await single.drain();
        assert.equal(mailer.calls, 3, 'not sent again');
        assert.equal(await store.mailOutbox.size(), 0);
        assert.equal(lines.at(-1)!.msg, 'mail: dropped after 1 failed attempts');
        assert.equal(lines.at(-1)!.to, 'cut@example.com');
      });

      test('an account e-mail goes out with its HTML part, and one still failing when its link expires is dropped unsent', async () => {
        const clock = new ManualClock(Date.parse('2026-03-12T10:00:00.000Z'));
        let down = false;
        const mailer = new RecordingMailer(() =>
          down ? new Error('connection refused') : undefined,
        );
        const { logger, lines } = capturingLogger();
        const mail = sender(clock, mailer, logger);
        const account = (to: string): MailMessage => ({
          organizationId: null,
          to,
          subject: 'Reset your password',
          text: 'https://print.example.com/reset-password?token=t',
          html: '<a href="https://print.example.com/reset-password?token=t">reset</a>',
          expiresAt: clock.now() + HOUR,
        });
        await store.mailOutbox.enqueue([account('sent@example.com')], clock.now());
        await mail.drain();
        assert.deepEqual(mailer.sent, [
          {
            to: 'sent@example.com',
            subject: 'Reset your password',
            text: 'https://print.example.com/reset-password?token=t',
            html: '<a href="https://print.example.com/reset-password?token=t">reset</a>',
          },
        ]);

        down = true;
        await store.mailOutbox.enqueue([account('late@example.com')], clock.now());
        // 30 s, 1 min, 2, 4, 8, 16, 32 min: the attempt due after the hour finds the link expired.
        let attempts = 0;
        for (const wait of [0, 30 * SECOND, MIN, 2 * MIN, 4 * MIN, 8 * MIN, 16 * MIN]) {
          clock.advance(wait);
          await mail.drain();
          attempts++;
          assert.equal(mailer.calls, 1 + attempts);
          assert.equal(await store.mailOutbox.size(), 1, `kept after attempt ${attempts}`);
        }
        down = false;
        clock.advance(32 * MIN);
        await mail.drain();
        assert.equal(mailer.calls, 1 + attempts, 'not sent: its link has expired');
        assert.equal(mailer.sent.length, 1);
        assert.equal(await store.mailOutbox.size(), 0, 'dropped');
        const dropped = lines.filter((l) => l.level === 50);
        assert.deepEqual(
          dropped.map((l) => [l.msg, l.to, l.error]),
          [
            [
              'mail: dropped unsent, it expired after 7 failed attempts',
              'late@example.com',
              'connection refused',
            ],
          ],
        );
      });
    });
  });

  describe(`mail senders of two instances on ${kind}`, { skip }, () => {
    const instances = twoInstancesPerSuite(kind);

    test('two senders running at once send each message once', async () => {
      const { a, b } = instances;
      const clock = new ManualClock(Date.parse('2026-03-10T10:00:00.000Z'));
      const org = await organization(a, [], clock.now());
      const total = 60;
      await a.mailOutbox.enqueue(
        Array.from({ length: total }, (_, i) => ({
          organizationId: org,
          to: `r${i}@example.com`,
          subject: `message ${i}`,
          text: 'x',
        })),
        clock.now(),
      );
      const mailers = [new RecordingMailer(undefined, true), new RecordingMailer(undefined, true)];
      const senders = [a, b].map(
        (store, i) =>
          new MailSender({
            store,
            clock,
            logger: silent,
            mailer: mailers[i]!,
            options: { batchSize: 4 },
          }),
      );
      await Promise.all([senders[0]!.drain(), senders[1]!.drain()]);
      const sent = mailers.flatMap((m) => m.sent.map((s) => s.to));
      assert.equal(sent.length, total, 'every message sent');
      assert.equal(new Set(sent).size, total, 'none twice');
      assert.equal(await a.mailOutbox.size(), 0);
    });
  });
}

describe('mail sender timers', () => {
  let store: Store;
  storePerSuite('sqlite', (opened) => {
    store = opened;
  });

  test('the sender looks at start, at once when an alert nudges it, and every second otherwise', async (ctx) => {
    const clock = new ManualClock(Date.parse('2026-03-10T10:00:00.000Z'));
    const mailer = new RecordingMailer();
    const service = new WebhookService({
      store,
      bus: new MemoryBus(),
      clock,
      logger: silent,
      mailer,
    });
    const owner = `owner-${suffix()}@example.com`;
    const org = await organization(store, [owner], clock.now());
    const left = { organizationId: org, to: 'left@example.com', subject: 'left', text: 'x' };
    await store.mailOutbox.enqueue([left], clock.now());
    const mail = service.mail!;

    ctx.mock.timers.enable({ apis: ['setTimeout'] });
    try {
      mail.start();
      await mail.idle();
      assert.deepEqual(
        mailer.sent.map((m) => m.to),
        ['left@example.com'],
        'at start: what was left',
      );

      // An alert writes its e-mail and nudges the sender: it looks at once, not after 1 s.
      await service.alerts.createRule(org, { kind: 'device_offline', channels: ['email'] });
      service.alerts.accept(offline(org, 'dev_9', clock.now()));
      await service.alerts.settled();
      ctx.mock.timers.tick(0);
      await mail.idle();
      assert.deepEqual(
        mailer.sent.map((m) => m.to),
        ['left@example.com', owner],
      );

      // Written with no nudge (another instance, say): the 1 s timer finds it.
      await store.mailOutbox.enqueue([{ ...left, to: 'later@example.com' }], clock.now());
      ctx.mock.timers.tick(999);
      await mail.idle();
      assert.equal(mailer.sent.length, 2, 'not before the second');
      ctx.mock.timers.tick(1);
      await mail.idle();
      assert.equal(mailer.sent.at(-1)!.to, 'later@example.com');
      await mail.stop();
    } finally {
      ctx.mock.timers.reset();
    }
    assert.equal(await store.mailOutbox.size(), 0);
  });
});
