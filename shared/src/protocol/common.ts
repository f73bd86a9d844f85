import { z } from 'zod';
import { PROTOCOL_LIMITS as L } from './limits.js';
import {
  cutSchema,
  fieldSchema,
  idSchema,
  paperSchema,
  PRINTER_CONNECTIONS,
  PRINTER_KINDS,
  PRINTER_LANGUAGES,
  PRINTER_STATUSES,
} from './fields.js';
import { configTemplateSchema, localSettingsSchema } from './local.js';
import { LABEL_DPIS, labelSizeProblem } from '../label-graphics/label-size.js';

/** Building blocks shared by the messages of both directions (see fields.ts). */

export {
  idSchema,
  fieldSchema,
  textSchema,
  isoDateSchema,
  PAPER_SIZES,
  paperSchema,
  CUT_MODES,
  cutSchema,
  PRINTER_CONNECTIONS,
  PRINTER_LANGUAGES,
  PRINTER_KINDS,
  PRINTER_STATUSES,
  type PrinterStatus,
  JOB_TYPES,
  type JobType,
  JOB_ENCODINGS,
  type JobEncoding,
} from './fields.js';

/** A ZPL or EPL printer's label: `4x6in`, `100x150mm` (see label-graphics/label-size.ts). */
export const labelSizeSchema = fieldSchema.refine((text) => labelSizeProblem(text) === null, {
  error: (issue) => labelSizeProblem(String(issue.input)) ?? 'not a label size',
});
/** A label printer's resolution in dots per inch. */
export const labelDpiSchema = z.union(LABEL_DPIS.map((d) => z.literal(d)));

/** A printer as the agent reports it in `hello` and `printers`. */
export const printerInfoSchema = z.object({
  agentPrinterId: idSchema,
  name: fieldSchema.min(1),
  alias: fieldSchema.nullable(),
  /** The printer URI (`tcp://10.0.0.5:9100`), never with a secret in it. */
  uri: fieldSchema,
  connection: z.enum(PRINTER_CONNECTIONS),
  kind: z.enum(PRINTER_KINDS),
  language: z.enum(PRINTER_LANGUAGES),
  paper: paperSchema.nullable(),
  /** ZPL and EPL printers: the label size and dpi given in the URI. Absent from older agents. */
  labelSize: labelSizeSchema.nullable().optional(),
  dpi: labelDpiSchema.nullable().optional(),
  codepage: fieldSchema.nullable(),
  capabilities: z.array(fieldSchema).max(L.maxCapabilities),
  status: z.enum(PRINTER_STATUSES),
  isDefault: z.boolean(),
});
export type PrinterInfo = z.infer<typeof printerInfoSchema>;

export const queueSummarySchema = z.object({
  queued: z.number().int().min(0),
  printing: z.number().int().min(0),
});
export type QueueSummary = z.infer<typeof queueSummarySchema>;

/** Per-printer defaults the cloud pushes (the spec's printers.defaults.<printerId>). */
export const printerDefaultsSchema = z.object({
  paper: paperSchema.optional(),
  /**
   * ZPL and EPL printers: the label size and dpi set in the dashboard. Fields of their own, not
   * `paper`, so that agents older than them (which know only 58mm and 80mm) ignore them.
   */
  labelSize: labelSizeSchema.optional(),
  dpi: labelDpiSchema.optional(),
  codepage: fieldSchema.optional(),
  cut: cutSchema.optional(),
});
export type PrinterDefaults = z.infer<typeof printerDefaultsSchema>;

/** How a printer group chooses its member (the contract's "Printer groups"). */
export const GROUP_STRATEGIES = ['failover', 'round-robin'] as const;
export type GroupStrategy = (typeof GROUP_STRATEGIES)[number];

/**
 * A printer group as an agent sees it: only this device's members, in the group's order, so that
 * local mode routes among them with the cloud's rule.
 */
export const configPrinterGroupSchema = z.object({
  id: idSchema,
  name: fieldSchema.min(1),
  strategy: z.enum(GROUP_STRATEGIES),
  agentPrinterIds: z.array(idSchema).min(1).max(L.maxGroupMembers),
});
export type ConfigPrinterGroup = z.infer<typeof configPrinterGroupSchema>;

/** The configuration pushed in `welcome` and `config`. */
export const agentConfigSchema = z.object({
  printers: z
    .array(
      z.object({
        agentPrinterId: idSchema,
        /** The cloud's printer id, so that the agent's logs and local API can name it. */
        printerId: idSchema.nullable(),
        isDefault: z.boolean().optional(),
        defaults: printerDefaultsSchema,
      }),
    )
    .max(L.maxPrinters),
  /**
   * Every template of the organization, for local mode (rendered by the agent, also offline).
   * HTML templates only reach agents from version 1.0.1. Absent from older clouds.
   */
  templates: z.array(configTemplateSchema).max(L.maxTemplates).optional(),
  /** Who may print through the agent's local server. Absent from older clouds. */
  local: localSettingsSchema.optional(),
  /**
   * Each printer group of the organization with at least one member on this device, with only
   * this device's members, in group order. Absent from older clouds: no groups.
   */
  printerGroups: z.array(configPrinterGroupSchema).max(L.maxPrinterGroups).optional(),
});
export type AgentConfig = z.infer<typeof agentConfigSchema>;
