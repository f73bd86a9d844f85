/**
 * `npm run bench [name…]`: runs every `bench/*.bench.ts` (or those whose name contains one of the
 * arguments), each in its own process so that one benchmark's heap does not skew the next.
 */
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
/** Names that also run benchmarks whose file says it otherwise (`labels`: every label bench). */
const ALIASES: Record<string, string[]> = { labels: ['label-documents'] };
const filters = process.argv.slice(2).flatMap((f) => [f, ...(ALIASES[f] ?? [])]);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();

let failed = false;
for (const file of files) {
  console.log(`\n== ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed = true;
}
if (files.length === 0) console.log('no benchmark matches');
process.exit(failed ? 1 : 0);
