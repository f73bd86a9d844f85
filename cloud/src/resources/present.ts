/** Records → the API's resources (ISO 8601 timestamps, only the fields the spec names). */
import type { z } from 'zod';
import type { Device, Job, Printer, PrinterGroup, Template } from '../storage/types.js';
import type {
  deviceSchema,
  jobSchema,
  printerGroupSchema,
  printerSchema,
  templateSchema,
} from './schemas.js';

// Timestamps repeat within a page (a sandbox job is created, sent and printed in one
// millisecond), and formatting a date is a noticeable part of rendering a list.
const isoCache = new Map<number, string>();
const iso = (ms: number): string => {
  let text = isoCache.get(ms);
  if (text === undefined) {
    text = new Date(ms).toISOString();
    if (isoCache.size >= 4096) isoCache.clear();
    isoCache.set(ms, text);
  }
  return text;
};
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export type JobResource = z.infer<typeof jobSchema>;

export function presentJob(job: Job): JobResource {
  return {
    id: job.id,
    idempotencyKey: job.idempotencyKey,
    deviceId: job.deviceId,
    printerId: job.printerId,
    source: job.source,
    mode: job.mode,
    type: job.type,
    templateId: job.templateId,
    state: job.state,
    attempt: job.attempt,
    errorCode: job.errorCode,
    errorMessage: job.errorMessage,
    metadata: job.metadata,
    contentRetained: job.contentRetained,
    hasPreview: job.hasPreview,
    createdAt: iso(job.createdAt),
    updatedAt: iso(job.updatedAt),
    dispatchedAt: isoOrNull(job.dispatchedAt),
    printedAt: isoOrNull(job.printedAt),
    expiresAt: isoOrNull(job.expiresAt),
    printerGroupId: job.printerGroupId,
    movedFrom: job.movedFrom,
    ...(job.events
      ? {
          events: job.events.map((e) => ({
            state: e.state,
            errorCode: e.errorCode,
            ...(e.printerId ? { printerId: e.printerId } : {}),
            at: iso(e.at),
          })),
        }
      : {}),
  };
}

export function presentPrinter(p: Printer): z.infer<typeof printerSchema> {
  return {
    id: p.id,
    deviceId: p.deviceId,
    agentPrinterId: p.agentPrinterId,
    name: p.name,
    alias: p.alias,
    connection: p.connection,
    kind: p.kind,
    paper: p.paper,
    codepage: p.codepage,
    capabilities: p.capabilities,
    isDefault: p.isDefault,
    status: p.status,
    lastStatusAt: isoOrNull(p.lastStatusAt),
  };
}

export function presentDevice(d: Device): z.infer<typeof deviceSchema> {
  return {
    id: d.id,
    name: d.name,
    groupId: d.groupId,
    os: d.os,
    arch: d.arch,
    agentVersion: d.agentVersion,
    status: d.status === 'online' ? 'online' : 'offline',
    activated: d.activated,
    lastSeenAt: isoOrNull(d.lastSeenAt),
    createdAt: iso(d.createdAt),
  };
}

export function presentTemplate(t: Template): z.infer<typeof templateSchema> {
  return {
    id: t.id,
    name: t.name,
    type: t.type,
    content: t.content,
    paper: t.paper,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
}

export function presentPrinterGroup(g: PrinterGroup): z.infer<typeof printerGroupSchema> {
  return {
    id: g.id,
    name: g.name,
    printerIds: g.printerIds,
    strategy: g.strategy,
    createdAt: iso(g.createdAt),
    updatedAt: iso(g.updatedAt),
  };
}
