/**
 * zod issues in the words of the spec: `blocks[12].size: must be 1-8`, unknown block types and
 * fields named with their block.
 */
import type { z } from 'zod';
import { formatPath, type FieldIssue } from '../errors/index.js';

/** Block types, in the order the spec lists them (for "expected one of …"). */
export const BLOCK_TYPES = [
  'text',
  'line',
  'pair',
  'table',
  'qr',
  'barcode',
  'image',
  'feed',
  'cut',
  'drawer',
  'raw',
] as const;

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;

export function toFieldIssue(issue: Issue, input: unknown): FieldIssue {
  if (issue.code === 'unrecognized_keys') {
    const where = formatPath(issue.path);
    const owner = describeOwner(issue.path, input);
    const keys = issue.keys.map((k) => `"${k}"`).join(', ');
    const path = issue.keys.length === 1 ? pathWith(issue.path, issue.keys[0]!) : where;
    return {
      path,
      message: `${path}: unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}${owner}`,
    };
  }
  const path = formatPath(issue.path);
  return { path, message: `${path}: ${issue.message}` };
}

function pathWith(path: readonly PropertyKey[], key: string): string {
  return formatPath([...path, key]);
}

function describeOwner(path: readonly PropertyKey[], input: unknown): string {
  let node: unknown = input;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return '';
    node = (node as Record<PropertyKey, unknown>)[part];
  }
  if (path.length === 2 && path[0] === 'blocks' && node !== null && typeof node === 'object') {
    const type = (node as Record<string, unknown>).type;
    if (typeof type === 'string') return ` of a ${type} block`;
  }
  return path.length === 0 ? ' of a receipt document' : '';
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

/** zod's issues in the words the spec uses (`must be …`), for issues without their own message. */
export function issueMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${ARTICLE[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return `must be ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map(String).join(', ')}`;
    case 'invalid_union':
      if ('discriminator' in issue && issue.discriminator === 'type') {
        const input = issue.input;
        const got =
          input !== null && typeof input === 'object'
            ? (input as Record<string, unknown>).type
            : undefined;
        const known = BLOCK_TYPES.join(', ');
        return got === undefined
          ? `is required: one of ${known}`
          : `unknown block type ${JSON.stringify(got)}; expected one of ${known}`;
      }
      return undefined;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} items`;
      return `must be at most ${issue.maximum}`;
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty';
      if (issue.origin === 'array') return `must have at least ${issue.minimum} item(s)`;
      return `must be at least ${issue.minimum}`;
    default:
      return undefined;
  }
}
