import type { z } from 'zod';
import { formatPath, PrintwireError, type FieldIssue } from '../errors/index.js';
import { PROTOCOL_LIMITS } from './limits.js';
import {
  AGENT_MESSAGE_SCHEMAS,
  CLOUD_MESSAGE_SCHEMAS,
  type AgentMessage,
  type CloudMessage,
} from './messages.js';

/** Why a message was refused. `id` is the message's own id when it could be read. */
export interface ProtocolError {
  code: 'PAYLOAD_TOO_LARGE' | 'INVALID_JSON' | 'VALIDATION_FAILED';
  message: string;
  issues: FieldIssue[];
  id?: string;
}

export type ParseResult<M> = { ok: true; message: M } | { ok: false; error: ProtocolError };

export interface ParseOptions {
  /** Largest accepted message in bytes; default `PROTOCOL_LIMITS.maxMessageBytes` (8 MB). */
  maxMessageBytes?: number;
}

/** What `ws` hands to a 'message' listener, or a plain string. */
export type RawMessage = string | Buffer | ArrayBuffer | Buffer[] | Uint8Array;

function byteLength(raw: RawMessage): number {
  if (typeof raw === 'string') return Buffer.byteLength(raw, 'utf8');
  if (Array.isArray(raw)) return raw.reduce((n, b) => n + b.byteLength, 0);
  return raw.byteLength;
}

function toText(raw: RawMessage): string {
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  if (raw instanceof ArrayBuffer) return Buffer.from(raw).toString('utf8');
  return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
}

function fail(
  code: ProtocolError['code'],
  message: string,
  issues: FieldIssue[] = [],
  id?: string,
) {
  return { ok: false as const, error: { code, message, issues, ...(id ? { id } : {}) } };
}

function parseWith<M>(
  schemas: Record<string, z.ZodType>,
  side: string,
  raw: RawMessage,
  options: ParseOptions,
): ParseResult<M> {
  const max = options.maxMessageBytes ?? PROTOCOL_LIMITS.maxMessageBytes;
  const size = byteLength(raw);
  if (size > max) {
    return fail('PAYLOAD_TOO_LARGE', `message is ${size} bytes; the limit is ${max}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(toText(raw));
  } catch (error) {
    return fail('INVALID_JSON', `message is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('VALIDATION_FAILED', 'message must be a JSON object');
  }
  const record = value as Record<string, unknown>;
  const id = typeof record.id === 'string' ? record.id.slice(0, 128) : undefined;
  const type = record.type;
  if (typeof type !== 'string') {
    const issues = [{ path: 'type', message: 'required string' }];
    return fail('VALIDATION_FAILED', 'type: required string', issues, id);
  }
  const schema = Object.hasOwn(schemas, type) ? schemas[type] : undefined;
  if (!schema) {
    const message = `type: unknown ${side} message type '${type.slice(0, 64)}'`;
    return fail('VALIDATION_FAILED', message, [{ path: 'type', message }], id);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: formatPath(issue.path),
      message: issue.message,
    }));
    const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    return fail('VALIDATION_FAILED', `${type}: ${summary}`, issues, id);
  }
  return { ok: true, message: result.data as M };
}

/** Parses what an agent sent. Never throws: a bad message becomes `{ ok: false, error }`. */
export function parseAgentMessage(
  raw: RawMessage,
  options: ParseOptions = {},
): ParseResult<AgentMessage> {
  return parseWith<AgentMessage>(AGENT_MESSAGE_SCHEMAS, 'agent', raw, options);
}

/** Parses what the cloud sent. Never throws: a bad message becomes `{ ok: false, error }`. */
export function parseCloudMessage(
  raw: RawMessage,
  options: ParseOptions = {},
): ParseResult<CloudMessage> {
  return parseWith<CloudMessage>(CLOUD_MESSAGE_SCHEMAS, 'cloud', raw, options);
}

/**
 * Serializes a message for the wire. Throws `PrintwireError('PAYLOAD_TOO_LARGE')` when it would
 * exceed the limit, so a sender learns before the peer closes the socket.
 */
export function serializeMessage(
  message: AgentMessage | CloudMessage,
  options: ParseOptions = {},
): string {
  const max = options.maxMessageBytes ?? PROTOCOL_LIMITS.maxMessageBytes;
  const text = JSON.stringify(message);
  const size = Buffer.byteLength(text, 'utf8');
  if (size > max) {
    throw new PrintwireError(
      'PAYLOAD_TOO_LARGE',
      `${message.type} message is ${size} bytes; the limit is ${max}`,
    );
  }
  return text;
}
