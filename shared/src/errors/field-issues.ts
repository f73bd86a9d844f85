/**
 * zod failures as FieldIssues: the `details` of every 400 the cloud answers and of every
 * INVALID_JOB the agent's local server answers, so that both say a field's problem the same way.
 */
import type { core, ZodError } from 'zod';
import { FIELD_RULES, formatPath, type FieldIssue, type FieldRule } from './index.js';

const SIZE_RULES: Record<string, [FieldRule, FieldRule]> = {
  string: ['min_length', 'max_length'],
  array: ['min_items', 'max_items'],
  set: ['min_items', 'max_items'],
};

/**
 * The rule a zod issue names, as a stable word with its bounds: what a client translates
 * (the dashboard says "At least 10 characters" in its user's language from `min_length`).
 */
export function issueRule(issue: core.$ZodIssue): Pick<FieldIssue, 'rule' | 'params'> {
  switch (issue.code) {
    case 'too_small': {
      // An empty string where one character is the least: the field is simply required.
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return { rule: 'required' };
      const rule: FieldRule = SIZE_RULES[issue.origin]?.[0] ?? 'min';
      return { rule, params: { minimum: Number(issue.minimum) } };
    }
    case 'too_big': {
      const rule: FieldRule = SIZE_RULES[issue.origin]?.[1] ?? 'max';
      return { rule, params: { maximum: Number(issue.maximum) } };
    }
    case 'invalid_format':
      if (issue.format === 'email') return { rule: 'email' };
      if (issue.format === 'url') return { rule: 'url' };
      return { rule: 'format', params: { format: issue.format } };
    case 'invalid_type':
      // zod v4 keeps no input on the issue; its message ends with what it received.
      return / received undefined$/.test(issue.message)
        ? { rule: 'required' }
        : { rule: 'type', params: { expected: issue.expected } };
    case 'invalid_value':
      return { rule: 'one_of', params: { values: issue.values.map(String).join(', ') } };
    case 'unrecognized_keys':
      return { rule: 'unknown_field' };
    case 'custom': {
      // A refinement names its rule in its params: `{ rule: 'one_of', values: '0, 1, 7' }`.
      const { rule, ...params } = (issue.params ?? {}) as Record<string, string | number>;
      if (!(FIELD_RULES as readonly unknown[]).includes(rule)) return {};
      const known = rule as FieldRule;
      return Object.keys(params).length > 0 ? { rule: known, params } : { rule: known };
    }
    default:
      return {};
  }
}

/**
 * zod issues as FieldIssues whose message starts with the path (`limit: must be 1-100`), each
 * with the rule it broke where zod names one.
 */
export function fieldIssues(
  error: ZodError,
  prefix: ReadonlyArray<PropertyKey> = [],
): FieldIssue[] {
  return error.issues.map((issue) => {
    const path = formatPath([...prefix, ...issue.path]);
    return { path, message: `${path}: ${issue.message}`, ...issueRule(issue) };
  });
}

/**
 * The message of an error that carries field issues: the first three, then how many more
 * (`data: required; type: … (and 2 more)`); `details` carries them all.
 */
export function issuesMessage(issues: readonly FieldIssue[]): string {
  const head = issues
    .slice(0, 3)
    .map((i) => i.message)
    .join('; ');
  return issues.length > 3 ? `${head} (and ${issues.length - 3} more)` : head;
}
