/**
 * A worker process of the reconnect storm (test/storm-support.ts): many simulated agents, each
 * the agent's real cloud link (`CloudLink`: hello, heartbeats, full-jitter reconnects, results
 * re-sent until the cloud confirms them) with an in-memory queue instead of a printer. A job is
 * acknowledged, "printed" (its id and the time are reported to the parent) and its result sent;
 * a job id the device knows already is acknowledged again and its result re-sent, never printed
 * again, as the real agent does. Talks to its parent over the IPC channel.
 */
import pino from 'pino';
import { CloudLink, systemClock, type LinkState } from '@printwire/agent';
import type { AgentMessageOf, DispatchedJob } from '@printwire/shared/protocol/index';

export interface StormAgentSpec {
  token: string;
  /** The load balancer this agent connects through. */
  cloudUrl: string;
}

/** Parent → worker. */
export type ToWorker =
  { type: 'start'; agents: StormAgentSpec[]; spreadMs: number } | { type: 'stop' };

/** Worker → parent. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'online'; count: number }
  | { type: 'printed'; jobs: Array<{ jobId: string; at: number }>; redelivered: number }
  /** Why connections failed or closed since the last report (reason → count). */
  | { type: 'failures'; counts: Record<string, number> };

/** Failed and closed connections of this worker's agents, by reason, since the last report. */
let failures: Record<string, number> = {};
/**
 * The agents' logger: nothing printed; the cloud link's failure and close lines counted by
 * their reason, numbers (ports, codes aside) folded so that alike reasons add up.
 */
const countingLogger = pino(
  { level: 'debug' },
  {
    write(line: string) {
      const entry = JSON.parse(line) as { msg?: string; err?: string; reason?: string };
      const why =
        entry.msg === 'cloud link error'
          ? `error: ${String(entry.err)}`
          : entry.msg === 'cloud link closed; reconnecting'
            ? `closed: ${String(entry.reason)}`
            : undefined;
      if (why === undefined) return;
      const key = why.replace(/127\.0\.0\.1:\d+/g, 'the balancer').slice(0, 80);
      failures[key] = (failures[key] ?? 0) + 1;
    },
  },
);

type Result = AgentMessageOf<'job.result'>;

class SimAgent {
  readonly link: CloudLink;
  /** Jobs this device has received, with the result it sent for each. */
  private readonly known = new Map<string, Result>();
  /** Results the cloud has not confirmed yet, by message id. */
  private readonly outbox = new Map<string, Result>();

  constructor(
    spec: StormAgentSpec,
    index: number,
    private readonly printed: (jobId: string) => void,
    private readonly redelivered: () => void,
  ) {
    this.link = new CloudLink({
      cloudUrl: spec.cloudUrl,
      deviceToken: spec.token,
      clock: systemClock,
      random: Math.random,
      logger: countingLogger,
      handlers: {
        hello: () => ({
          agentVersion: '1.1.0',
          os: 'linux',
          arch: 'x64',
          hostname: `till-${index}`,
          printers: [
            {
              agentPrinterId: 'till',
              name: 'Till printer',
              alias: 'till',
              uri: 'tcp://10.0.0.5:9100',
              connection: 'tcp',
              kind: 'receipt',
              language: 'escpos',
              paper: '80mm',
              codepage: null,
              capabilities: ['cut'],
              status: 'online',
              isDefault: true,
            },
          ],
          hidden: [],
          queue: { queued: 0, printing: 0 },
        }),
        queueSummary: () => ({ queued: 0, printing: 0 }),
        onWelcome: () => {},
        onConfig: () => {},
        onDispatch: (job) => this.dispatch(job),
        onCancel: () => {},
        // No `features` in its hello: the cloud never asks these agents for a job back.
        onWithdraw: () => {},
        outbox: () => [...this.outbox.values()],
        onAck: (id) => this.outbox.delete(id),
        onFatal: (reason) => console.error(`agent ${index} refused: ${reason}`),
      },
    });
  }

  private dispatch(job: DispatchedJob): void {
    this.link.send({ type: 'job.ack', jobId: job.id, attempt: job.attempt });
    let result = this.known.get(job.id);
    if (result) this.redelivered();
    else {
      this.printed(job.id);
      result = {
        type: 'job.result',
        id: `r-${job.id}`,
        jobId: job.id,
        attempt: job.attempt,
        outcome: 'printed',
        at: new Date().toISOString(),
      };
      this.known.set(job.id, result);
      this.outbox.set(result.id, result);
    }
    this.link.send(result);
  }
}

const send = (message: FromWorker) => process.send!(message);
const agents: SimAgent[] = [];
let online = 0;
let printed: Array<{ jobId: string; at: number }> = [];
let redelivered = 0;

// Batched reports: at most every 50 ms, only when something changed.
let reportedOnline = -1;
const reporter = setInterval(() => {
  if (online !== reportedOnline) {
    reportedOnline = online;
    send({ type: 'online', count: online });
  }
  if (Object.keys(failures).length > 0) {
    send({ type: 'failures', counts: failures });
    failures = {};
  }
  if (printed.length > 0 || redelivered > 0) {
    send({ type: 'printed', jobs: printed, redelivered });
    printed = [];
    redelivered = 0;
  }
}, 50);

process.on('message', (message: ToWorker) => {
  if (message.type === 'stop') {
    for (const agent of agents) agent.link.stop();
    clearInterval(reporter);
    process.exit(0);
  }
  message.agents.forEach((spec, i) => {
    const agent = new SimAgent(
      spec,
      i,
      (jobId) => printed.push({ jobId, at: Date.now() }),
      () => redelivered++,
    );
    let last: LinkState = agent.link.state;
    agent.link.onStateChange((state) => {
      if (state === 'online') online++;
      else if (last === 'online') online--;
      last = state;
    });
    agents.push(agent);
    // The first connection of each agent spread over `spreadMs` (as a fleet that starts over a
    // morning, not in one instant); the storm itself is what the reconnect backoff does.
    setTimeout(() => agent.link.start(), Math.random() * message.spreadMs);
  });
});
// Messages sent before this process listened would be lost: the parent waits for this.
send({ type: 'ready' });
