/**
 * The window's API client. Every request carries the per-launch key the desktop app (or
 * `printwire-agent window`) put in the address's fragment: it is moved to sessionStorage and
 * taken out of the address bar at once, so it never travels in a Referer or a copied link.
 */
import type { WindowApiError } from '../../src/window/window-types';

const KEY_STORAGE = 'printwire.windowKey';
const KEY_HEADER = 'x-printwire-window-key';

function takeKeyFromAddress(): string | null {
  const match = /(?:^#|&)key=([A-Za-z0-9_-]{20,})/.exec(location.hash);
  if (match) {
    sessionStorage.setItem(KEY_STORAGE, match[1]!);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem(KEY_STORAGE);
}

export const windowKey = takeKeyFromAddress();

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  /** The message when it names `field` ("cloudUrl: must be ..."), without the field's name. */
  field(field: string): string | undefined {
    return this.message.startsWith(`${field}:`)
      ? this.message.slice(field.length + 1).trim()
      : undefined;
  }
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`/window/api/${path}`, {
    method,
    headers: {
      [KEY_HEADER]: windowKey ?? '',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!response.ok) {
    const parsed = (await response.json().catch(() => null)) as WindowApiError | null;
    throw new ApiError(
      response.status,
      parsed?.error.code ?? 'INTERNAL',
      parsed?.error.message ?? response.statusText,
    );
  }
  return (await response.json()) as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
};

/** The support zip, saved through the browser's download. */
export async function downloadLogs(): Promise<void> {
  const response = await fetch('/window/api/logs-export', {
    headers: { [KEY_HEADER]: windowKey ?? '' },
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!response.ok) throw new ApiError(response.status, 'INTERNAL', response.statusText);
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    'printwire-agent-logs.zip';
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The agent's event stream (server-sent events read through fetch, which can send the key
 * header): calls `onEvent` with each event's name, and `onLive` when the stream opens or drops.
 * Reconnects after a drop; returns the stop function.
 */
export function listen(
  onEvent: (event: string, data: unknown) => void,
  onLive: (live: boolean) => void,
): () => void {
  const controller = new AbortController();
  let stopped = false;
  const run = async () => {
    while (!stopped) {
      try {
        const response = await fetch('/window/api/events', {
          headers: { [KEY_HEADER]: windowKey ?? '' },
          signal: controller.signal,
          credentials: 'omit',
        });
        if (!response.ok || !response.body) throw new Error(String(response.status));
        onLive(true);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event) onEvent(event, data ? (JSON.parse(data) as unknown) : null);
          }
        }
      } catch {
        // Dropped or refused: said below, then tried again.
      }
      if (stopped) return;
      onLive(false);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  };
  void run();
  return () => {
    stopped = true;
    controller.abort();
  };
}
