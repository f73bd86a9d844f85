/**
 * printwire-cloud: `serve`, `migrate`, `admin bootstrap`, `admin set-plan`.
 * Configuration comes from the environment (see config.ts and cloud/README.md).
 */
import { parseArgs } from 'node:util';
import { ConfigError, configFromEnv } from './config.js';
import { openStore, startServer, startupLine } from './server.js';
import { bootstrap } from './services/bootstrap.js';
import { PLANS, type Plan } from './storage/types.js';

const USAGE = `usage:
  printwire-cloud serve
  printwire-cloud migrate
  printwire-cloud admin bootstrap --email E --password P --org NAME [--plan PLAN] [--json]
  printwire-cloud admin set-plan ORG_ID PLAN
plans: ${PLANS.join(', ')}`;

class UsageError extends Error {}
/** A failure to report without the usage text. */
class CliError extends Error {}

function isPlan(value: string | undefined): value is Plan {
  return (PLANS as readonly string[]).includes(value ?? '');
}

async function serve(): Promise<void> {
  const config = configFromEnv();
  const running = await startServer(config);
  // For the person at the terminal; stdout stays JSON lines for log collectors.
  process.stderr.write(startupLine(config, running.url) + '\n');
  const stop = (signal: string) => {
    running.logger.info({ signal }, 'signal received');
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        running.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

async function migrate(): Promise<void> {
  const store = await openStore(configFromEnv(), { migrate: false });
  try {
    const { applied } = await store.migrate();
    console.log(
      applied.length === 0
        ? `schema up to date (${store.dialect})`
        : `applied ${applied.join(', ')}`,
    );
  } finally {
    await store.close();
  }
}

async function adminBootstrap(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      org: { type: 'string' },
      plan: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.email || !values.password || !values.org)
    throw new UsageError('bootstrap needs --email, --password and --org');
  if (values.plan !== undefined && !isPlan(values.plan))
    throw new UsageError(`unknown plan ${values.plan}`);
  if (values.password.length < 10 || values.password.length > 200)
    throw new UsageError('the password must be 10-200 characters');
  if (values.org.length < 2 || values.org.length > 100)
    throw new UsageError('the organization name must be 2-100 characters');
  const store = await openStore(configFromEnv());
  try {
    const result = await bootstrap(
      store,
      {
        email: values.email,
        password: values.password,
        org: values.org,
        ...(values.plan ? { plan: values.plan as Plan } : {}),
        ...(values.name ? { name: values.name } : {}),
      },
      Date.now(),
    );
    if (values.json) console.log(JSON.stringify(result));
    else {
      console.log(`user ${result.userId}\norganization ${result.orgId}`);
      console.log(`live key ${result.liveKey}\ntest key ${result.testKey}`);
      console.log(`activation code ${result.activationCode} (valid 24 hours)`);
      console.log('The keys are shown only now; store them.');
    }
  } finally {
    await store.close();
  }
}

async function adminSetPlan(args: string[]): Promise<void> {
  const [orgId, plan] = args;
  if (!orgId || !isPlan(plan)) throw new UsageError('set-plan needs ORG_ID and one of the plans');
  const store = await openStore(configFromEnv());
  try {
    const org = await store.organizations.update(orgId, { plan }, Date.now());
    if (!org) throw new CliError(`no organization ${orgId}`);
    console.log(`${org.id} is on the ${org.plan} plan`);
  } finally {
    await store.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve();
    case 'migrate':
      return migrate();
    case 'admin':
      if (sub === 'bootstrap') return adminBootstrap(rest);
      if (sub === 'set-plan') return adminSetPlan(rest);
      throw new UsageError(`unknown admin command ${sub ?? ''}`);
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE);
      return;
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof UsageError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
  ) {
    console.error(`printwire-cloud: ${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof CliError || error instanceof ConfigError) {
    console.error(`printwire-cloud: ${error.message}`);
    process.exit(1);
  }
  console.error(`printwire-cloud: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
});
