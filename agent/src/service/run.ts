import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ServiceStep } from './plan.js';

/** The side effects of a plan, injected so that tests record them instead. */
export interface ServiceEffects {
  /** Runs a command; `quiet` hides its output (the `unless` checks). Returns its exit code. */
  run(argv: string[], quiet: boolean): number;
  writeFile(path: string, content: string, mode: number): void;
  copyFile(from: string, to: string): void;
  mkdir(path: string): void;
  remove(path: string): void;
}

export const systemEffects: ServiceEffects = {
  run(argv, quiet) {
    const [command = '', ...args] = argv;
    const result = spawnSync(command, args, { stdio: quiet ? 'ignore' : 'inherit' });
    if (result.error) return 127;
    return result.status ?? 1;
  },
  writeFile(path, content, mode) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content, { mode });
  },
  copyFile: (from, to) => copyFileSync(from, to),
  mkdir: (path) => mkdirSync(path, { recursive: true }),
  remove: (path) => rmSync(path, { recursive: true, force: true }),
};

/** A command as a person would type it in a POSIX shell. */
export function shellLine(argv: string[]): string {
  return argv
    .map((a) => (/^[\w@%+=:,./\\-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

/** The step as the CLI prints it: what it is for, then what it does. */
export function describeStep(step: ServiceStep): string {
  switch (step.kind) {
    case 'run':
      return (
        `- ${step.say}\n    $ ${shellLine(step.argv)}` +
        (step.unless ? `\n    (skipped if this succeeds: $ ${shellLine(step.unless)})` : '')
      );
    case 'write':
      return `- ${step.say}\n    write ${step.path} (${step.content.split('\n').length - 1} lines, mode ${step.mode.toString(8)})`;
    case 'copy':
      return `- ${step.say}\n    copy ${step.from} -> ${step.to}`;
    case 'mkdir':
      return `- ${step.say}\n    mkdir -p ${step.path}`;
    case 'remove':
      return `- ${step.say}\n    rm -rf ${step.path}`;
  }
}

export interface RunPlanOptions {
  /** Print the steps only. */
  dryRun: boolean;
  effects?: ServiceEffects;
  /** Where the description goes; default stdout. */
  print?: (line: string) => void;
}

/**
 * Prints each step and does it. Stops at the first failure (unless the step may fail) and
 * returns whether every step that had to succeed did.
 */
export function runServicePlan(steps: ServiceStep[], options: RunPlanOptions): boolean {
  const effects = options.effects ?? systemEffects;
  const print = options.print ?? ((line: string) => process.stdout.write(line + '\n'));
  for (const step of steps) {
    print(describeStep(step));
    if (options.dryRun) {
      if (step.kind === 'write') print(step.content.replace(/^(?=.)/gm, '      ').trimEnd());
      continue;
    }
    switch (step.kind) {
      case 'run': {
        if (step.unless && effects.run(step.unless, true) === 0) {
          print('    (skipped: already done)');
          break;
        }
        const code = effects.run(step.argv, false);
        if (code !== 0) {
          print(`    exit code ${code}${step.mayFail ? ' (going on)' : ''}`);
          if (!step.mayFail) return false;
        }
        break;
      }
      case 'write':
        effects.writeFile(step.path, step.content, step.mode);
        break;
      case 'copy':
        effects.copyFile(step.from, step.to);
        break;
      case 'mkdir':
        effects.mkdir(step.path);
        break;
      case 'remove':
        effects.remove(step.path);
        break;
    }
  }
  return true;
}
