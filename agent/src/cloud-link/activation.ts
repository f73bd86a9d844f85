import { z } from 'zod';
import { isErrorCode, PrintwireError } from '@printwire/shared/errors/index';

export interface ActivationRequest {
  cloudUrl: string;
  code: string;
  name: string;
  os: string;
  arch: string;
  agentVersion: string;
  /** Longest wait for the cloud's answer; default 15 s. */
  timeoutMs?: number;
}

const activationSchema = z.object({
  deviceId: z.string().min(1),
  deviceToken: z.string().min(1),
  organizationId: z.string().min(1),
  /** Newer clouds name the organization, for the agent's window. */
  organizationName: z.string().optional(),
});
export type Activation = z.infer<typeof activationSchema>;

const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});

/** `http(s)://host[/prefix]` + path, without a doubled slash. */
export function cloudEndpoint(cloudUrl: string, path: string, ws = false): string {
  const url = new URL(cloudUrl);
  if (ws) url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  url.search = '';
  return url.toString();
}

/**
 * Trades an activation code for a device id and token: `POST {cloud}/agent/v1/activate`.
 * Throws PrintwireError with the cloud's error code (for example UNAUTHORIZED for a used or
 * expired code) or UNAVAILABLE when the cloud cannot be reached.
 */
export async function activate(request: ActivationRequest): Promise<Activation> {
  let response: Response;
  try {
    response = await fetch(cloudEndpoint(request.cloudUrl, '/agent/v1/activate'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        code: request.code,
        name: request.name,
        os: request.os,
        arch: request.arch,
        agentVersion: request.agentVersion,
      }),
      signal: AbortSignal.timeout(request.timeoutMs ?? 15_000),
    });
  } catch (error) {
    throw new PrintwireError(
      'UNAVAILABLE',
      `cannot reach ${request.cloudUrl}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = errorBodySchema.safeParse(body);
    const code =
      parsed.success && isErrorCode(parsed.data.error.code)
        ? parsed.data.error.code
        : 'UNAUTHORIZED';
    const message = parsed.success ? parsed.data.error.message : `HTTP ${response.status}`;
    throw new PrintwireError(code, `activation failed: ${message}`);
  }
  const parsed = activationSchema.safeParse(body);
  if (!parsed.success) {
    throw new PrintwireError(
      'INTERNAL',
      'activation answer lacks deviceId, deviceToken or organizationId',
    );
  }
  return parsed.data;
}
