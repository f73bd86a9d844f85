/**
 * @printwire/sdk: print from a web page through the Printwire agent on the same computer
 * (local mode, docs/local-mode.md), else through your backend. No runtime dependency.
 */
export {
  connect,
  LocalAgent,
  DEFAULT_PORTS,
  type ConnectOptions,
  type AgentInfo,
  type Printer,
  type Job,
  type JobState,
  type JobRequest,
} from './agent.js';
export { createClient, type HybridOptions, type HybridResult } from './client.js';
export { PrintwireError, type PrintwireErrorCode } from './errors.js';
export { signaturePayload } from './sign.js';
