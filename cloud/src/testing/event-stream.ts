/**
 * Test helper: reads a Server-Sent Events stream (the dashboard's GET /orgs/{orgId}/events) over
 * a real HTTP connection and lets a test await the next event that matches.
 */

export interface StreamEvent {
  event: string;
  // Whatever JSON the stream carried; tests read it loosely.
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface EventStreamReader {
  status: number;
  /** Every event received so far. */
  events: StreamEvent[];
  /** Heartbeat comments received so far. */
  comments: number;
  /** Resolves with the first event (already received or to come) that `match` accepts. */
  next(match: (e: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  /** Resolves at the next heartbeat comment. */
  heartbeat(): Promise<void>;
  /** Resolves when the server has ended the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openEventStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<EventStreamReader> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const events: StreamEvent[] = [];
  const beats = new Set<() => void>();
  const waiters = new Set<{ match: (e: StreamEvent) => boolean; resolve(e: StreamEvent): void }>();
  const reader: EventStreamReader = {
    status: res.status,
    events,
    comments: 0,
    ended: Promise.resolve(),
    next(match, timeoutMs = 5_000) {
      const found = events.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching event within ${timeoutMs} ms: ${JSON.stringify(events)}`));
        }, timeoutMs);
        const waiter = {
          match,
          resolve: (e: StreamEvent) => {
            clearTimeout(timer);
            resolve(e);
          },
        };
        waiters.add(waiter);
      });
    },
    heartbeat: () => new Promise<void>((resolve) => beats.add(resolve)),
    close: () => abort.abort(),
  };
  if (!res.ok || !res.body) return reader;
  const body = res.body.pipeThrough(new TextDecoderStream());
  reader.ended = (async () => {
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) {
              reader.comments++;
              for (const beat of beats) beat();
              beats.clear();
            } else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length === 0) continue;
          const received = { event, data: JSON.parse(data.join('\n')) as unknown };
          events.push(received);
          for (const w of waiters) {
            if (w.match(received)) {
              waiters.delete(w);
              w.resolve(received);
            }
          }
        }
      }
    } catch {
      // Aborted by close(): the test is done with it.
    }
  })();
  return reader;
}
