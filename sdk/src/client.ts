import {
  connect,
  type ConnectOptions,
  type Job,
  type JobRequest,
  type LocalAgent,
} from './agent.js';
import { PrintwireError } from './errors.js';

export interface HybridOptions<C> {
  /** Options of `connect()`; the agent is looked for at the first print. */
  local?: ConnectOptions;
  /** Your backend's endpoint that calls POST /v1/jobs (never an API key in the page). */
  cloud: { print(job: JobRequest): Promise<C> };
}

export type HybridResult<C> = { via: 'local'; job: Job } | { via: 'cloud'; job: C };

/** Codes after which the cloud path is taken: the agent is absent or refuses this page. */
const FALL_BACK = [
  'AGENT_NOT_FOUND',
  'LOCAL_ACCESS_BLOCKED',
  'ORIGIN_NOT_ALLOWED',
  'ORIGIN_BLOCKED',
  'SIGNATURE_REQUIRED',
];

/**
 * Prints through the agent when one answers, else through `cloud.print`. A job the agent
 * accepted is never sent to the cloud too (no double print).
 */
export function createClient<C = unknown>(
  options: HybridOptions<C>,
): {
  print(job: JobRequest): Promise<HybridResult<C>>;
} {
  let agent: Promise<LocalAgent> | null = null;
  return {
    async print(job) {
      try {
        agent ??= connect(options.local);
        const local = await agent;
        return { via: 'local', job: await local.print(job) };
      } catch (error) {
        const code = (error as PrintwireError).code;
        if (!(error instanceof PrintwireError) || !FALL_BACK.includes(code)) throw error;
        agent = null;
        return { via: 'cloud', job: await options.cloud.print(job) };
      }
    },
  };
}
