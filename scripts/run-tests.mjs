#!/usr/bin/env node
// Runs every package's tests in one `node --test` run so that the summary at the end covers all
// of them. Arguments filter the test files by substring: `npm test -- shared/src/escpos`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const roots = ['shared/src', 'cloud/src', 'agent/src', 'agent/electron', 'sdk/src', 'test'];
const skipDirs = new Set(['node_modules', 'fixtures', '.printwire']);

function collect(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!skipDirs.has(name)) collect(path, out);
    } else if (name.endsWith('.test.ts')) {
      out.push(relative(root, path));
    }
  }
  return out;
}

const filters = process.argv.slice(2);
const files = roots
  .flatMap((r) => collect(join(root, r), []))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  // The end-to-end files under test/ take longest (real processes, the expiry test waits out a
  // real minute): started first, they run alongside the many short files instead of after them.
  .sort(
    (a, b) => Number(!a.startsWith('test/')) - Number(!b.startsWith('test/')) || a.localeCompare(b),
  );

if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ') || '(all)'}`);
  process.exit(1);
}

// With --test-force-exit a file exits as soon as the tests declared so far are done: tests declared
// after a top-level await that follows a top-level test would silently never run. Refuse such files.
const lateDeclarations = files.filter((file) => {
  let declared = false;
  for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
    if (/^(test|describe|suite|it)\(/.test(line)) declared = true;
    else if (declared && /^\S.*\bawait\b/.test(line)) return true;
  }
  return false;
});
if (lateDeclarations.length > 0) {
  console.error(
    `these test files await at the top level after declaring a test, so the tests declared after the await would not run; await first, then declare:\n  ${lateDeclarations.join('\n  ')}`,
  );
  process.exit(1);
}

const concurrency = Math.max(2, availableParallelism());
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    // A test that hangs fails after five minutes instead of stalling the run, and a file whose
    // tests are all done exits even if a library left a handle open (the run must end). The
    // limit holds for a whole file too: the browser files (axe in three languages at two
    // widths) take up to two minutes on a busy 2-core machine.
    '--test-timeout=300000',
    '--test-force-exit',
    '--test-reporter=spec',
    ...files,
  ],
  { cwd: root, stdio: 'inherit' },
);
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
