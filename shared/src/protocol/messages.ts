import { z } from 'zod';
import { ERROR_CATALOG } from '../errors/index.js';
import {
  agentConfigSchema,
  cutSchema,
  fieldSchema,
  idSchema,
  isoDateSchema,
  JOB_ENCODINGS,
  JOB_TYPES,
  printerInfoSchema,
  PRINTER_STATUSES,
  queueSummarySchema,
  textSchema,
} from './common.js';
import { PROTOCOL_LIMITS as L } from './limits.js';
import { jobLocalSchema } from './local.js';

const errorCodeSchema = z.enum(Object.keys(ERROR_CATALOG) as [keyof typeof ERROR_CATALOG]);

// ---------------------------------------------------------------- agent → cloud

/**
 * The agentPrinterIds of printers the person hid on the agent's computer: the cloud removes them
 * from its list. Absent (older agents): none.
 */
const hiddenPrintersSchema = z.array(idSchema).max(L.maxPrinters).optional();

export const helloSchema = z.object({
  type: z.literal('hello'),
  id: idSchema,
  protocolVersion: z.number().int().min(1),
  agentVersion: fieldSchema.min(1),
  os: fieldSchema.min(1),
  arch: fieldSchema.min(1),
  hostname: fieldSchema,
  printers: z.array(printerInfoSchema).max(L.maxPrinters),
  hidden: hiddenPrintersSchema,
  queue: queueSummarySchema.optional(),
  /**
   * What this agent implements beyond protocol version 1: `job.withdraw` (it answers
   * job.withdraw and reports `started`), `job.delivery` (it tells dispatches of a job apart by
   * `delivery`, and `attempt` counts print attempts only). Absent (older agents): nothing.
   */
  features: z.array(z.string().min(1).max(L.maxFeatureChars)).max(L.maxFeatures).optional(),
});

/** The features this code implements, as an agent announces them in `hello`. */
export const AGENT_FEATURES = ['job.withdraw', 'job.delivery'] as const;

export const heartbeatSchema = z.object({
  type: z.literal('heartbeat'),
  sentAt: isoDateSchema,
  queue: queueSummarySchema,
});

export const printersSchema = z.object({
  type: z.literal('printers'),
  printers: z.array(printerInfoSchema).max(L.maxPrinters),
  hidden: hiddenPrintersSchema,
});

export const printerStatusSchema = z.object({
  type: z.literal('printer.status'),
  agentPrinterId: idSchema,
  status: z.enum(PRINTER_STATUSES),
  /** What the printer said, in words (`paper near end`, `connection refused`). */
  detail: textSchema.optional(),
  at: isoDateSchema,
});

/** A dispatch's `delivery` (see dispatchedJobSchema). */
const deliverySchema = z.number().int().min(1).max(L.maxDelivery);

export const jobAckSchema = z.object({
  type: z.literal('job.ack'),
  jobId: idSchema,
  attempt: z.number().int().min(1),
  /** The dispatch's `delivery`, when it carried one. */
  delivery: deliverySchema.optional(),
});

export const JOB_PROGRESS_STAGES = ['printing', 'retry_scheduled', 'waiting'] as const;

export const jobProgressSchema = z
  .object({
    type: z.literal('job.progress'),
    jobId: idSchema,
    attempt: z.number().int().min(1),
    /**
     * `printing`: the first byte is about to go out. `retry_scheduled`: back in the queue.
     * `waiting`: held durably, no byte sent, until the printer is ready (errorCode says why).
     */
    stage: z.enum(JOB_PROGRESS_STAGES),
    /**
     * false: no byte of this attempt can have reached the printer. true: some may have.
     * Absent (older agents): may have printed.
     */
    started: z.boolean().optional(),
    errorCode: errorCodeSchema.optional(),
    errorMessage: textSchema.optional(),
    nextAttemptAt: isoDateSchema.optional(),
  })
  .superRefine((m, ctx) => {
    if (m.stage !== 'waiting') return;
    if (m.started !== false) {
      ctx.addIssue({ code: 'custom', path: ['started'], message: 'waiting needs started: false' });
    }
    if (m.errorCode === undefined) {
      ctx.addIssue({ code: 'custom', path: ['errorCode'], message: 'waiting needs an errorCode' });
    }
  });

export const jobResultSchema = z
  .object({
    type: z.literal('job.result'),
    id: idSchema,
    jobId: idSchema,
    attempt: z.number().int().min(1),
    outcome: z.enum(['printed', 'failed']),
    errorCode: errorCodeSchema.optional(),
    errorMessage: textSchema.optional(),
    retryable: z.boolean().optional(),
    at: isoDateSchema,
  })
  .refine((m) => m.outcome === 'printed' || m.errorCode !== undefined, {
    message: 'a failed result needs an errorCode',
    path: ['errorCode'],
  });

export const jobCancelledSchema = z.object({
  type: z.literal('job.cancelled'),
  id: idSchema,
  jobId: idSchema,
  /** true: the job will not print. false: too late or unknown, see `reason`. */
  cancelled: z.boolean(),
  reason: z.enum(['not_started', 'started', 'finished', 'unknown_job']),
  at: isoDateSchema,
});

/**
 * The answer to job.withdraw. withdrawn: true (reason not_started) means the agent dropped the
 * job and will send no byte of it unless the job is dispatched to it again.
 */
export const jobWithdrawnSchema = z
  .object({
    type: z.literal('job.withdrawn'),
    id: idSchema,
    jobId: idSchema,
    withdrawn: z.boolean(),
    reason: z.enum(['not_started', 'started', 'finished', 'unknown_job']),
    /** withdrawn: the `delivery` of the dispatch given back (absent: the agent had none). */
    delivery: deliverySchema.optional(),
    at: isoDateSchema,
  })
  .refine((m) => m.withdrawn === (m.reason === 'not_started'), {
    message: 'withdrawn is true exactly when the reason is not_started',
    path: ['withdrawn'],
  });

// ---------------------------------------------------------------- cloud → agent

export const welcomeSchema = z.object({
  type: z.literal('welcome'),
  replyTo: idSchema.optional(),
  protocolVersion: z.number().int().min(1),
  deviceId: idSchema,
  heartbeatIntervalMs: z.number().int().min(L.minHeartbeatIntervalMs).max(L.maxHeartbeatIntervalMs),
  config: agentConfigSchema,
});

export const configSchema = z.object({
  type: z.literal('config'),
  config: agentConfigSchema,
});

export const jobOptionsSchema = z.object({
  copies: z.number().int().min(1).max(L.maxCopies).optional(),
  cut: cutSchema.optional(),
  openDrawer: z.boolean().optional(),
  codepage: fieldSchema.optional(),
  /** The free plan's "Printed with Printwire" line (receipts only). */
  footer: z.boolean().optional(),
});
export type JobOptions = z.infer<typeof jobOptionsSchema>;

export const dispatchedJobSchema = z
  .object({
    id: idSchema,
    /** The print attempt this dispatch starts with (the agent retries up to maxAttempts). */
    attempt: z.number().int().min(1).max(L.maxAttempts),
    maxAttempts: z.number().int().min(1).max(L.maxAttempts),
    /**
     * Which dispatch of the job this is: 1 for the first, one more for each dispatch after the
     * job was given back (job.withdrawn) or moved; a re-send of one dispatch carries the same
     * number. An agent that gave the job back refuses a dispatch at or below the one it gave
     * back. Absent (older clouds): `attempt` tells dispatches apart.
     */
    delivery: deliverySchema.optional(),
    agentPrinterId: idSchema,
    type: z.enum(JOB_TYPES),
    encoding: z.enum(JOB_ENCODINGS),
    /** A string for base64, utf8 and url; the receipt document (an object) for json. */
    content: z.union([z.string(), z.record(z.string(), z.unknown())]),
    options: jobOptionsSchema,
    expiresAt: isoDateSchema.nullable(),
    createdAt: isoDateSchema,
  })
  .superRefine((job, ctx) => {
    const isObject = typeof job.content !== 'string';
    if (job.encoding === 'json' && !isObject) {
      ctx.addIssue({
        code: 'custom',
        path: ['content'],
        message: 'json content must be an object',
      });
    }
    if (job.encoding !== 'json' && isObject) {
      ctx.addIssue({
        code: 'custom',
        path: ['content'],
        message: `${job.encoding} content must be a string`,
      });
    }
    if (job.attempt > job.maxAttempts) {
      ctx.addIssue({ code: 'custom', path: ['attempt'], message: 'must be at most maxAttempts' });
    }
  });
export type DispatchedJob = z.infer<typeof dispatchedJobSchema>;

export const jobDispatchSchema = z.object({
  type: z.literal('job.dispatch'),
  job: dispatchedJobSchema,
});

export const jobCancelSchema = z.object({
  type: z.literal('job.cancel'),
  jobId: idSchema,
});

/** Give this job back if no byte of it can have printed (only to agents with that feature). */
export const jobWithdrawSchema = z.object({
  type: z.literal('job.withdraw'),
  jobId: idSchema,
});

/**
 * Confirms a message that carried an `id` (job.result, job.cancelled, job.withdrawn, job.local).
 */
export const ackSchema = z.object({
  type: z.literal('ack'),
  id: idSchema,
});

export const errorMessageSchema = z.object({
  type: z.literal('error'),
  replyTo: idSchema.optional(),
  code: fieldSchema,
  message: textSchema,
});

export const CLOSE_REASONS = [
  'token_revoked',
  'device_deleted',
  'replaced',
  'unsupported_version',
  'protocol_error',
  'shutdown',
] as const;

export const closeSchema = z.object({
  type: z.literal('close'),
  reason: z.enum(CLOSE_REASONS),
  message: textSchema,
  /** false: the agent must not reconnect with this token. */
  retry: z.boolean(),
});

export const AGENT_MESSAGE_SCHEMAS = {
  hello: helloSchema,
  heartbeat: heartbeatSchema,
  printers: printersSchema,
  'printer.status': printerStatusSchema,
  'job.ack': jobAckSchema,
  'job.progress': jobProgressSchema,
  'job.result': jobResultSchema,
  'job.cancelled': jobCancelledSchema,
  'job.local': jobLocalSchema,
  'job.withdrawn': jobWithdrawnSchema,
} as const;

export const CLOUD_MESSAGE_SCHEMAS = {
  welcome: welcomeSchema,
  config: configSchema,
  'job.dispatch': jobDispatchSchema,
  'job.cancel': jobCancelSchema,
  'job.withdraw': jobWithdrawSchema,
  ack: ackSchema,
  error: errorMessageSchema,
  close: closeSchema,
} as const;

type Infer<T> = { [K in keyof T]: T[K] extends z.ZodType ? z.infer<T[K]> : never }[keyof T];

/** Every message an agent may send. */
export type AgentMessage = Infer<typeof AGENT_MESSAGE_SCHEMAS>;
/** Every message the cloud may send. */
export type CloudMessage = Infer<typeof CLOUD_MESSAGE_SCHEMAS>;
export type AgentMessageType = AgentMessage['type'];
export type CloudMessageType = CloudMessage['type'];
export type AgentMessageOf<T extends AgentMessageType> = Extract<AgentMessage, { type: T }>;
export type CloudMessageOf<T extends CloudMessageType> = Extract<CloudMessage, { type: T }>;
