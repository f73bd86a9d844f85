/**
 * DeviceService: activation (a code traded once for a device token, stored hashed), token
 * checks at the WebSocket handshake, device presence and the printers an agent reports. Every
 * change a user can see is published on the bus (device.activated, device.online,
 * device.offline, printer.online, printer.offline, printer.paper_out, printer.error); its webhook
 * event was written to the outbox in the change's own transaction (storage/devices.ts), and the
 * bus event tells the webhook intake to look.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { PrinterInfo } from '@printwire/shared/protocol/index';
import type { EventBus, InventoryChanged } from '../bus/events.js';
import { invalid } from '../resources/field-issues.js';
import { presentDevice, presentPrinter } from '../resources/present.js';
import type { Clock } from '../lib/clock.js';
import { Batched } from '../lib/batched.js';
import type { Connected, Hello, PrinterChange, ReportedPrinter } from '../storage/devices.js';
import { printerEventType } from '../storage/webhook-outbox.js';
import type { Store } from '../storage/store.js';
import type { Device, Printer } from '../storage/types.js';
import { hashSecret } from './api-keys.js';

export interface DeviceServiceDeps {
  store: Store;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /** Printer groups route their jobs when members change status (GroupRouter). */
  groups?: { printersChanged(organizationId: string, printers: Printer[]): Promise<void> };
}

const text = (max: number) => z.string().trim().min(1).max(max);

/** The body of POST /agent/v1/activate. */
export const activationRequestSchema = z.object({
  code: text(64),
  name: text(200),
  os: text(64),
  arch: text(64),
  agentVersion: text(64),
});

export const activationResponseSchema = z.object({
  deviceId: z.string(),
  deviceToken: z.string(),
  organizationId: z.string(),
  /** For the agent's window ("activated for <organization>"). */
  organizationName: z.string(),
});

/** Device tokens: `pwd_` and 32 random bytes, base64url. */
export function generateDeviceToken(): string {
  return `pwd_${randomBytes(32).toString('base64url')}`;
}

/**
 * Which event a printer status raises; `unknown` raises none. The storage writes the same
 * webhook event to the outbox with the change (one rule for both).
 */
export function printerEventFor(status: string): InventoryChanged['type'] | undefined {
  return printerEventType(status);
}

function toReported(p: PrinterInfo): ReportedPrinter {
  return {
    agentPrinterId: p.agentPrinterId,
    name: p.name,
    alias: p.alias ?? null,
    connection: p.connection,
    kind: p.kind,
    paper: p.paper ?? null,
    codepage: p.codepage ?? null,
    capabilities: p.capabilities ?? [],
    isDefault: p.isDefault ?? false,
    status: p.status,
    reach: p.reach,
  };
}

export class DeviceService {
  /** Token lookups of handshakes arriving together: one query. */
  private readonly tokenLookups: Batched<string, Device | undefined>;
  /** Devices heard from together: one write. */
  private readonly touches: Batched<{ organizationId: string; deviceId: string }, undefined>;
  /** Hellos arriving together: one transaction. */
  private readonly hellos: Batched<Hello, Connected | undefined | Error>;

  constructor(private readonly deps: DeviceServiceDeps) {
    this.tokenLookups = new Batched(async (hashes) => {
      const found = await deps.store.devices.findByTokenHashes([...new Set(hashes)]);
      return hashes.map((h) => found.get(h));
    });
    this.touches = new Batched(async (devices) => {
      await deps.store.devices.touch(devices, deps.clock.now());
      return devices.map(() => undefined);
    });
    this.hellos = new Batched(async (hellos) => {
      try {
        return await deps.store.devices.connected(hellos, deps.clock.now());
      } catch (err) {
        if (hellos.length === 1) throw err;
        // One hello's failure (a race with the same agent on another instance) is its own.
        return Promise.all(
          hellos.map((h) =>
            deps.store.devices.connected([h], deps.clock.now()).then(
              ([one]) => one,
              (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
            ),
          ),
        );
      }
    });
  }

  /** POST /agent/v1/activate: 401 UNAUTHORIZED for an unknown, used or expired code. */
  async activate(body: unknown): Promise<{
    deviceId: string;
    deviceToken: string;
    organizationId: string;
    organizationName: string;
  }> {
    const parsed = activationRequestSchema.safeParse(body);
    if (!parsed.success) {
      throw invalid(
        'VALIDATION_FAILED',
        parsed.error.issues.map((i) => ({
          path: i.path.join('.'),
          message: `${i.path.join('.')}: ${i.message}`,
        })),
      );
    }
    const { code, ...device } = parsed.data;
    const deviceToken = generateDeviceToken();
    const now = this.deps.clock.now();
    const created = await this.deps.store.devices.activate(
      { codeHash: hashSecret(code.toUpperCase()), tokenHash: hashSecret(deviceToken), ...device },
      now,
    );
    if (!created) {
      throw new PrintwireError(
        'UNAUTHORIZED',
        'the activation code is unknown, already used or expired',
      );
    }
    await this.publishDevice('device.activated', created, now);
    const organization = await this.deps.store.organizations.get(created.organizationId);
    return {
      deviceId: created.id,
      deviceToken,
      organizationId: created.organizationId,
      organizationName: organization?.name ?? '',
    };
  }

  /** The device a token belongs to, or undefined (unknown or revoked token). */
  authenticate(token: string): Promise<Device | undefined> {
    if (token.length === 0 || token.length > 256) return Promise.resolve(undefined);
    return this.tokenLookups.call(hashSecret(token));
  }

  /** Revokes the device's token; the gateway holding its socket closes it with 4401. */
  async revoke(organizationId: string, deviceId: string): Promise<boolean> {
    const revoked = await this.deps.store.devices.revokeToken(organizationId, deviceId);
    await this.deps.bus.publish({
      type: 'gateway.signal',
      action: 'revoked',
      organizationId,
      deviceId,
    });
    return revoked;
  }

  /** A hello was accepted: the device is online and its printers are as it says. */
  async connected(
    device: Device,
    hello: {
      os: string;
      arch: string;
      agentVersion: string;
      printers: PrinterInfo[];
      hidden?: string[] | undefined;
    },
  ): Promise<Printer[]> {
    // Printers and presence in one write (with the hellos arriving meanwhile): a device that
    // shows online has its printers listed.
    const done = await this.hellos.call({
      organizationId: device.organizationId,
      deviceId: device.id,
      os: hello.os,
      arch: hello.arch,
      agentVersion: hello.agentVersion,
      printers: hello.printers.map(toReported),
      hidden: hello.hidden ?? [],
    });
    if (done instanceof Error) throw done;
    if (!done) return [];
    const now = done.after.lastSeenAt ?? this.deps.clock.now();
    const { changes, before, after } = done;
    await this.publishPrinterChanges(changes, now, { route: false });
    if (before.status !== 'online') await this.publishDevice('device.online', after, now);
    // Printer groups route their jobs now that the device shows online: all of its printers when
    // it was offline, those that changed when it only reconnected within the offline grace.
    const printers = changes.map((c) => c.printer);
    const route =
      before.status !== 'online'
        ? printers
        : changes.filter((c) => c.previousStatus !== c.printer.status).map((c) => c.printer);
    if (route.length > 0) await this.deps.groups?.printersChanged(device.organizationId, route);
    return printers;
  }

  /** The socket closed or went silent: the device and its printers are offline. */
  async disconnected(organizationId: string, deviceId: string): Promise<void> {
    const now = this.deps.clock.now();
    const presence = await this.deps.store.devices.setPresence(
      organizationId,
      deviceId,
      'offline',
      now,
    );
    if (presence && presence.before.status !== 'offline') {
      await this.publishDevice('device.offline', presence.after, now);
    }
    const changes = await this.deps.store.devices.markPrintersOffline(
      organizationId,
      deviceId,
      now,
    );
    await this.publishPrinterChanges(changes, now);
  }

  /**
   * A device that reaches the cloud by polling (a printer without a computer) was heard from:
   * online from its first poll (device.online, as an agent's hello).
   */
  async polled(organizationId: string, deviceId: string): Promise<void> {
    const now = this.deps.clock.now();
    const presence = await this.deps.store.devices.setPresence(
      organizationId,
      deviceId,
      'online',
      now,
    );
    if (presence && presence.before.status !== 'online') {
      await this.publishDevice('device.online', presence.after, now);
    }
  }

  /** A device created in the dashboard (a printer without a computer): device.activated. */
  added(device: Device): Promise<void> {
    return this.publishDevice('device.activated', device, this.deps.clock.now());
  }

  /** A heartbeat's `last_seen_at` (once a minute per agent), written with those arriving meanwhile. */
  async heardFrom(organizationId: string, deviceId: string): Promise<void> {
    await this.touches.call({ organizationId, deviceId });
  }

  /**
   * hello or `printers`: upserts them (stable cloud ids), removes those the person hid on the
   * agent's computer, and publishes status changes.
   */
  async printersReported(
    organizationId: string,
    deviceId: string,
    printers: PrinterInfo[],
    hidden: readonly string[] = [],
  ): Promise<Printer[]> {
    const now = this.deps.clock.now();
    const changes = await this.deps.store.devices.upsertPrinters(
      organizationId,
      deviceId,
      printers.map(toReported),
      now,
      hidden,
    );
    await this.publishPrinterChanges(changes, now);
    return changes.map((c) => c.printer);
  }

  /** `printer.status`: false when the device has no such printer. */
  async printerStatus(
    organizationId: string,
    deviceId: string,
    agentPrinterId: string,
    status: string,
  ): Promise<boolean> {
    const now = this.deps.clock.now();
    const change = await this.deps.store.devices.setPrinterStatus(
      organizationId,
      deviceId,
      agentPrinterId,
      status,
      now,
    );
    if (!change) return false;
    await this.publishPrinterChanges([change], now);
    return true;
  }

  private async publishPrinterChanges(
    changes: PrinterChange[],
    now: number,
    { route } = { route: true },
  ): Promise<void> {
    for (const { printer, previousStatus } of changes) {
      if (previousStatus === printer.status) continue;
      const type = printerEventFor(printer.status);
      if (!type) continue;
      await this.publish({
        type,
        organizationId: printer.organizationId,
        deviceId: printer.deviceId,
        printerId: printer.id,
        at: new Date(now).toISOString(),
        resource: presentPrinter(printer),
      });
    }
    // Then the printer groups whose members changed route their jobs.
    if (!route) return;
    const changed = changes.filter((c) => c.previousStatus !== c.printer.status);
    const organizationId = changed[0]?.printer.organizationId;
    if (organizationId !== undefined) {
      await this.deps.groups?.printersChanged(
        organizationId,
        changed.map((c) => c.printer),
      );
    }
  }

  private publishDevice(
    type: 'device.activated' | 'device.online' | 'device.offline',
    device: Device,
    now: number,
  ): Promise<void> {
    return this.publish({
      type,
      organizationId: device.organizationId,
      deviceId: device.id,
      printerId: null,
      at: new Date(now).toISOString(),
      resource: presentDevice(device),
    });
  }

  private async publish(event: InventoryChanged): Promise<void> {
    try {
      await this.deps.bus.publish(event);
    } catch (err) {
      this.deps.logger.error({ err, type: event.type }, 'publishing a device event failed');
    }
  }
}
