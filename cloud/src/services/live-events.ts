/**
 * The dashboard's live channel, the bus side: one subscription to the event bus per instance
 * (the Redis bus brings every instance's events), handed out to the open event streams of each
 * organization. A job event reaches only streams of its mode; printer and device events reach
 * every stream of the organization (test keys see the real printers too).
 */
import type { Logger } from 'pino';
import type { BusEvent, EventBus } from '../bus/events.js';
import type { Mode } from '../storage/types.js';

/** One message of the stream: its SSE event name and its JSON data. */
export interface LiveMessage {
  event: 'job' | 'printer' | 'device';
  data: Record<string, unknown>;
}

export interface LiveListener {
  organizationId: string;
  mode: Mode;
  send(message: LiveMessage): void;
  /** The instance is stopping: end the stream (the browser reconnects elsewhere). */
  close(): void;
}

/** The stream message of a bus event, or undefined for events the dashboard does not show. */
export function liveMessage(event: BusEvent): LiveMessage | undefined {
  if (event.type === 'job.state_changed') {
    return {
      event: 'job',
      data: {
        type: event.type,
        jobId: event.jobId,
        mode: event.mode,
        state: event.state,
        errorCode: event.errorCode,
        at: event.at,
        job: event.job,
      },
    };
  }
  if (event.type.startsWith('printer.') && 'printerId' in event) {
    return {
      event: 'printer',
      data: {
        type: event.type,
        printerId: event.printerId,
        deviceId: event.deviceId,
        at: event.at,
        printer: event.resource,
      },
    };
  }
  if (event.type === 'agents.config_changed') {
    // A printer's alias, default or defaults were set (or templates, keys, origins changed):
    // open pages ask for their printers again, so an edit in one dashboard shows in the others.
    return { event: 'printer', data: { type: 'printers.settings_changed' } };
  }
  if (event.type.startsWith('device.') && 'resource' in event) {
    return {
      event: 'device',
      data: { type: event.type, deviceId: event.deviceId, at: event.at, device: event.resource },
    };
  }
  return undefined;
}

export class LiveEvents {
  private readonly listeners = new Map<string, Set<LiveListener>>();
  private subscription: Promise<() => Promise<void>> | undefined;

  constructor(private readonly deps: { bus: EventBus; logger: Logger }) {}

  /** Starts sending the organization's events to `listener`; returns the way to stop. */
  async listen(listener: LiveListener): Promise<() => void> {
    this.subscription ??= this.deps.bus.subscribe((event) => this.dispatch(event));
    await this.subscription;
    let set = this.listeners.get(listener.organizationId);
    if (!set) this.listeners.set(listener.organizationId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(listener.organizationId);
    };
  }

  /** How many streams are open on this instance. */
  get size(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  private dispatch(event: BusEvent): void {
    const set = this.listeners.get(event.organizationId);
    if (!set) return;
    const message = liveMessage(event);
    if (!message) return;
    for (const listener of set) {
      if (event.mode !== undefined && event.mode !== listener.mode) continue;
      try {
        listener.send(message);
      } catch (err) {
        this.deps.logger.warn({ err }, 'a live event could not be sent');
      }
    }
  }

  /** Ends every stream and the bus subscription (the instance is stopping). */
  async close(): Promise<void> {
    for (const set of this.listeners.values()) for (const l of set) l.close();
    this.listeners.clear();
    const subscription = this.subscription;
    this.subscription = undefined;
    if (subscription) await (await subscription)();
  }
}
