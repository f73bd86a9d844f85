/**
 * The contracts that cross a process boundary, each written once: the job request and its check,
 * the local API's wire (frames, signature payload), the URL rule, the printer statuses and the
 * webhook event names. The error catalog is `../errors`; the clock and backoff are `../time`.
 * Each module is also importable by its subpath (`@printwire/shared/contracts/job-request`).
 */
export {
  checkJobRequest,
  jobOptionsSchema,
  jobRequestSchema,
  metadataSchema,
  printerReferenceSchema,
  printOptions,
  type CheckedContent,
  type CheckedJobRequest,
  type JobRequest,
  type JobRequestCheck,
} from './job-request.js';
export {
  DEFAULT_LOCAL_PORTS,
  LOCAL_API_VERSION,
  LOCAL_LIMITS,
  LOCAL_WS_PATH,
  parseSignaturePayload,
  signatureHeader,
  signaturePayload,
  signedMessage,
  type LocalAgentInfo,
  type LocalErrorFrame,
  type LocalJob as LocalApiJob,
  type LocalPrinter,
  type LocalRequestFrame,
  type LocalServerFrame,
  type SignedParts,
} from './local-api.js';
export {
  chooseGroupMember,
  isReadyMemberStatus,
  READY_MEMBER_STATUSES,
  type ChooseMemberOptions,
} from './group-routing.js';
export { allowedUrlSchemes, isAllowedUrlScheme, MAX_URL_LENGTH, urlProblem } from './url.js';
export { PRINTER_NEEDS_ATTENTION } from './printer-status.js';
export {
  ALERT_EVENTS,
  DEVICE_EVENTS,
  JOB_EVENTS,
  PRINTER_EVENTS,
  printerEventType,
  WEBHOOK_EVENTS,
  type WebhookEventType,
} from './webhook-events.js';
