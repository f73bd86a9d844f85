/** Writes docs/api.md from the OpenAPI document the server serves. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_VERSION, OPERATIONS } from '../src/app.js';
import { formattedApiMarkdown } from '../src/http/api-docs.js';
import { buildOpenApi } from '../src/http/openapi.js';

const target = fileURLToPath(new URL('../../docs/api.md', import.meta.url));
writeFileSync(
  target,
  await formattedApiMarkdown(buildOpenApi(OPERATIONS, { version: API_VERSION }), target),
);
console.log(`wrote ${target}`);
