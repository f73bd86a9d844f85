/**
 * docs/api.md, rendered from the OpenAPI document: one section per endpoint (scope, parameters,
 * body, responses) and one per named schema. `npm run docs:api -w @printwire/cloud` writes it and
 * a test fails when the committed file differs from what this renders.
 */
type Json = Record<string, unknown>;

const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A short type name for a JSON schema: `string`, `integer 1-100`, `Job`, `queued \| sending`. */
export function typeName(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    return `[${name}](#${name.toLowerCase()})`;
  }
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => String(v)).join(', ');
  if ('const' in schema) return JSON.stringify(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return (options as Json[]).map(typeName).join(' or ');
  }
  const t = schema.type;
  if (Array.isArray(t)) return t.join(' or ');
  if (t === 'array') return `array of ${typeName(schema.items as Json | undefined)}`;
  const props = schema.properties as Record<string, Json> | undefined;
  if (t === 'object' && props?.data && props.nextCursor) {
    return `{ data: ${typeName(props.data)}, nextCursor }`;
  }
  if (
    t === 'object' &&
    schema.additionalProperties &&
    typeof schema.additionalProperties === 'object' &&
    !schema.properties
  ) {
    return `object of ${typeName(schema.additionalProperties as Json)}`;
  }
  let name = typeof t === 'string' ? t : 'any';
  const min = schema.minimum ?? schema.minLength;
  const max = schema.maximum ?? schema.maxLength;
  const safe = (n: unknown) => typeof n === 'number' && Math.abs(n) < 1e15;
  if (safe(min) && safe(max)) name += ` ${String(min)}-${String(max)}`;
  else if (safe(max)) name += ` ≤ ${String(max)}`;
  else if (safe(min) && min !== 0) name += ` ≥ ${String(min)}`;
  if (typeof schema.format === 'string') name += ` (${schema.format})`;
  return name;
}

function propertiesTable(schema: Json): string[] {
  const props = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  const lines = ['| Field | Type | Required | Notes |', '|---|---|---|---|'];
  for (const [name, prop] of Object.entries(props)) {
    const description = typeof prop.description === 'string' ? prop.description : '';
    lines.push(
      `| ${name} | ${esc(typeName(prop))} | ${required.has(name) ? 'yes' : 'no'} | ${esc(description)} |`,
    );
  }
  return lines;
}

export function renderApiMarkdown(doc: Json): string {
  const info = doc.info as Json;
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const schemas = ((doc.components as Json).schemas ?? {}) as Record<string, Json>;
  const out: string[] = [
    '# Printwire API reference',
    '',
    '<!-- Generated from /openapi.json by `npm run docs:api -w @printwire/cloud`; do not edit by hand. -->',
    '',
    `Version ${String(info.version)}. ${String(info.description)}`,
    '',
    'Lists answer `{ data, nextCursor }`: pass `nextCursor` as `cursor` for the next page; `limit` is 1-100, default 25.',
    'Every endpoint that takes an API key may also answer 401 UNAUTHORIZED, 403 FORBIDDEN (a scope is missing) and 429 RATE_LIMITED (with Retry-After).',
    '',
  ];
  const byTag = new Map<string, Array<[string, string, Json]>>();
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = ((op.tags as string[]) ?? ['Other'])[0]!;
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push([method, path, op]);
    }
  }
  out.push('## Endpoints', '');
  for (const [tag, ops] of byTag) {
    for (const [method, path] of ops) out.push(`- \`${method.toUpperCase()} ${path}\` (${tag})`);
  }
  out.push('');
  for (const [tag, ops] of byTag) {
    out.push(`## ${tag}`, '');
    for (const [method, path, op] of ops) {
      out.push(`### ${method.toUpperCase()} ${path}`, '', String(op.summary) + '.', '');
      if (op.description) out.push(String(op.description), '');
      const scope = op['x-scope'];
      const security = op.security as unknown[];
      out.push(
        `Authentication: ${security.length === 0 ? 'none' : scope ? `API key with scope \`${String(scope)}\`` : 'any API key'}.`,
        '',
      );
      const params = (op.parameters ?? []) as Json[];
      if (params.length > 0) {
        out.push('| Parameter | In | Type | Required | Notes |', '|---|---|---|---|---|');
        for (const p of params) {
          const schema = p.schema as Json;
          const description = String(p.description ?? schema.description ?? '');
          out.push(
            `| ${esc(String(p.name))} | ${String(p.in)} | ${esc(typeName(schema))} | ${p.required ? 'yes' : 'no'} | ${esc(description)} |`,
          );
        }
        out.push('');
      }
      const body = op.requestBody as Json | undefined;
      if (body) {
        const schema = ((body.content as Json)['application/json'] as Json).schema as Json;
        out.push(`Body (application/json): ${typeName(schema)}.`, '');
      }
      out.push('| Status | Meaning | Body |', '|---|---|---|');
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        const content = response.content as Record<string, Json> | undefined;
        const [type, media] = content ? Object.entries(content)[0]! : [undefined, undefined];
        const shape = media
          ? type === 'application/json'
            ? typeName(media.schema as Json)
            : String(type)
          : '';
        out.push(`| ${status} | ${esc(String(response.description))} | ${esc(shape)} |`);
      }
      out.push('');
      const headers = Object.entries(op.responses as Record<string, Json>).flatMap(
        ([status, response]) =>
          Object.entries((response.headers ?? {}) as Record<string, Json>).map(
            ([name, header]) => `| ${status} | ${esc(name)} | ${esc(String(header.description))} |`,
          ),
      );
      if (headers.length > 0) {
        out.push('| Status | Response header | Meaning |', '|---|---|---|', ...headers, '');
      }
    }
  }
  out.push('## Schemas', '');
  for (const [name, schema] of Object.entries(schemas)) {
    out.push(`### ${name}`, '');
    if (typeof schema.description === 'string') out.push(schema.description, '');
    if (schema.properties) out.push(...propertiesTable(schema), '');
    else out.push(`Type: ${esc(typeName(schema))}.`, '');
  }
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

/**
 * The markdown exactly as committed: rendered, then formatted by Prettier with the repository's
 * settings (so `npm run lint` and the up-to-date test agree).
 */
export async function formattedApiMarkdown(doc: Json, filepath: string): Promise<string> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(filepath)) ?? {};
  return prettier.format(renderApiMarkdown(doc), { ...options, filepath });
}
