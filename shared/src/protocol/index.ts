/**
 * The agent protocol: the JSON messages on the WebSocket between an agent and the cloud
 * (`/agent/v1/connect`), as zod schemas both ends validate with. See docs/agent-protocol.md.
 * Names are explicit (no `export *`) so that nothing here collides with the other modules that
 * the package root re-exports.
 */
export {
  PROTOCOL_VERSION,
  PROTOCOL_LIMITS,
  AGENT_CLOSE_CODES,
  isFatalCloseCode,
} from './limits.js';
export {
  PRINTER_CONNECTIONS,
  PRINTER_LANGUAGES,
  PRINTER_KINDS,
  PRINTER_STATUSES,
  JOB_TYPES as PROTOCOL_JOB_TYPES,
  JOB_ENCODINGS as PROTOCOL_JOB_ENCODINGS,
  printerInfoSchema,
  agentConfigSchema,
  configPrinterGroupSchema,
  GROUP_STRATEGIES as PROTOCOL_GROUP_STRATEGIES,
  type GroupStrategy as ProtocolGroupStrategy,
  type ConfigPrinterGroup,
  type PrinterStatus,
  type PrinterInfo,
  type QueueSummary,
  type PrinterDefaults,
  type AgentConfig,
} from './common.js';
export {
  JOB_STATES as PROTOCOL_JOB_STATES,
  originProblem,
  configTemplateSchema,
  configSigningKeySchema,
  localSettingsSchema,
  localJobIdSchema,
  localJobSchema,
  type JobState as ProtocolJobState,
  type ConfigTemplate,
  type ConfigSigningKey,
  type LocalSettings,
  type LocalJob,
} from './local.js';
export {
  AGENT_MESSAGE_SCHEMAS,
  CLOUD_MESSAGE_SCHEMAS,
  CLOSE_REASONS,
  AGENT_FEATURES,
  JOB_PROGRESS_STAGES,
  dispatchedJobSchema,
  type DispatchedJob,
  type JobOptions as DispatchedJobOptions,
  type AgentMessage,
  type CloudMessage,
  type AgentMessageType,
  type CloudMessageType,
  type AgentMessageOf,
  type CloudMessageOf,
} from './messages.js';
export {
  parseAgentMessage,
  parseCloudMessage,
  serializeMessage,
  type ProtocolError,
  type ParseResult,
  type ParseOptions,
  type RawMessage,
} from './parse.js';
