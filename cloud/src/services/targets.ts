/**
 * Resolves a job's target (printerId, deviceId with alias, the printer reference, or the default
 * printer) to a printer visible to the key's mode. Problems are returned as field issues.
 */
import { chooseGroupMember, isReadyMemberStatus } from '@printwire/shared/contracts/group-routing';
import type { FieldIssue } from '@printwire/shared/errors/index';
import type { JobRequest } from '../resources/schemas.js';
import type { Store } from '../storage/store.js';
import type { GroupMember } from '../storage/printer-groups.js';
import type { GroupStrategy, Mode, Printer, PrinterGroup } from '../storage/types.js';

export interface Target {
  deviceId: string | null;
  printerId: string | null;
  printer: Printer | undefined;
  /** Set when the job named a printer group: the member is chosen when the job is stored. */
  group?: { group: PrinterGroup; members: GroupMember[] };
}

/** A member takes jobs: its device is connected and its printer is neither out nor open. */
export function isReady(member: GroupMember): boolean {
  return member.deviceStatus === 'online' && isReadyMemberStatus(member.status);
}

/**
 * The member that takes a group's next job, or null when none is ready: the shared rule
 * (`chooseGroupMember`, which the agent's local mode applies too) on the members' live status.
 * `lastPrinterId` is the member that took the group's last job (round-robin); `exclude` leaves
 * out the member a job is being moved from.
 */
export function chooseMember(
  strategy: GroupStrategy,
  members: readonly GroupMember[],
  lastPrinterId: string | null,
  exclude?: string,
): GroupMember | null {
  return chooseGroupMember(strategy, members, {
    id: (m) => m.printerId,
    ready: isReady,
    last: lastPrinterId,
    ...(exclude !== undefined ? { exclude } : {}),
  });
}

type Resolution = { ok: true; target: Target } | { ok: false; issues: FieldIssue[] };

const fail = (path: string, rule: string): Resolution => ({
  ok: false,
  issues: [{ path, message: `${path}: ${rule}` }],
});

function one(printer: Printer): Resolution {
  return { ok: true, target: { deviceId: printer.deviceId, printerId: printer.id, printer } };
}

type Match = Parameters<Store['inventory']['findPrinters']>[2];

interface Lookup {
  store: Store;
  organizationId: string;
  v: { includeSandbox: boolean };
}

/**
 * A module function, not a closure made per request: the loader (tsx, with esbuild's keepNames)
 * names every function it creates, and that costs on the API's busiest path.
 */
function find(lookup: Lookup, match: Match): Promise<Printer[]> {
  return lookup.store.inventory.findPrinters(lookup.organizationId, lookup.v, match);
}

export async function resolveTarget(
  store: Store,
  organizationId: string,
  mode: Mode,
  req: Pick<JobRequest, 'printer' | 'printerId' | 'printerGroupId' | 'deviceId' | 'alias'>,
): Promise<Resolution> {
  const v = { includeSandbox: mode === 'test' };
  const lookup: Lookup = { store, organizationId, v };

  if (req.printerGroupId !== undefined) {
    const found = await store.printerGroups.withMembers(organizationId, req.printerGroupId);
    if (!found) return fail('printerGroupId', `no printer group ${req.printerGroupId}`);
    return {
      ok: true,
      target: { deviceId: null, printerId: null, printer: undefined, group: found },
    };
  }

  if (req.printerId !== undefined) {
    const [printer] = await find(lookup, { id: req.printerId });
    if (!printer) return fail('printerId', `no printer ${req.printerId}`);
    if (req.deviceId !== undefined && req.deviceId !== printer.deviceId) {
      return fail('deviceId', `printer ${printer.id} is not on device ${req.deviceId}`);
    }
    return one(printer);
  }

  if (req.printer !== undefined) {
    const ref = req.printer;
    const deviceId = typeof ref === 'object' ? ref.deviceId : req.deviceId;
    const scope = deviceId !== undefined ? { deviceId } : {};
    let matches: Printer[];
    if (typeof ref === 'string') {
      matches = await find(lookup, { ...scope, id: ref });
      if (matches.length === 0) matches = await find(lookup, { ...scope, alias: ref });
      if (matches.length === 0) matches = await find(lookup, { ...scope, name: ref });
    } else {
      matches = await find(lookup, {
        ...scope,
        ...(ref.id !== undefined ? { id: ref.id } : {}),
        ...(ref.alias !== undefined ? { alias: ref.alias } : {}),
        ...(ref.name !== undefined ? { name: ref.name } : {}),
      });
    }
    if (matches.length === 0) return fail('printer', 'no printer matches this reference');
    // Test keys see the sandbox and real printers; an alias both share means the sandbox's.
    const preferred = mode === 'test' ? matches.filter((p) => p.sandbox) : matches;
    const candidates = preferred.length > 0 ? preferred : matches;
    if (candidates.length > 1) {
      return fail('printer', `matches ${candidates.length} printers; give its id or a deviceId`);
    }
    return one(candidates[0]!);
  }

  if (req.deviceId !== undefined) {
    const device = await store.inventory.getDevice(organizationId, req.deviceId, v);
    if (!device) return fail('deviceId', `no device ${req.deviceId}`);
    if (req.alias !== undefined) {
      const [printer] = await find(lookup, { deviceId: device.id, alias: req.alias });
      if (!printer)
        return fail('alias', `device ${device.id} has no printer with alias ${req.alias}`);
      return one(printer);
    }
    const [printer] = await find(lookup, { deviceId: device.id, isDefault: true });
    // Without a default printer the agent prints on the device's own default.
    return { ok: true, target: { deviceId: device.id, printerId: printer?.id ?? null, printer } };
  }

  const defaults = await find(lookup, { isDefault: true, sandbox: mode === 'test' });
  if (defaults.length === 0) {
    return fail(
      'printer',
      'the organization has no default printer: give printerId, deviceId or printer',
    );
  }
  return one(defaults[0]!);
}
