/**
 * End to end, printer groups on PostgreSQL + Redis with two cloud instances (jobs posted to both,
 * the agent connected to one; the cases are in e2e-printer-groups-support.ts): skipped with a
 * message when either is unreachable.
 */
import { after, before, describe } from 'node:test';
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import pg from 'pg';
import {
  POSTGRES_URL,
  postgresReachable,
  REDIS_URL,
  redisReachable,
} from '@printwire/cloud/testing';
import { CloudProcess, freePort, tempDir } from './e2e-support.js';
import { groupCases, start, type Setup } from './e2e-printer-groups-support.js';

// Awaited before any test is declared (scripts/run-tests.mjs refuses a later await).
const pgUp = await postgresReachable();
const redisUp = await redisReachable();
const skip = !pgUp
  ? `PostgreSQL not reachable at ${POSTGRES_URL} (set DATABASE_URL)`
  : !redisUp
    ? `Redis not reachable at ${REDIS_URL} (set REDIS_URL)`
    : false;

describe('printer groups end to end (PostgreSQL + Redis, two instances)', { skip }, () => {
  let setup: Setup;
  const clouds: CloudProcess[] = [];
  const database = `pw_e2e_groups_${randomBytes(4).toString('hex')}`;
  const admin = () => {
    // Like psql, a URL without a user name connects as the operating-system user.
    const url = new URL(POSTGRES_URL);
    if (!url.username) url.username = process.env.PGUSER ?? userInfo().username;
    return new pg.Client({ connectionString: url.toString() });
  };

  before(async () => {
    const client = admin();
    await client.connect();
    await client.query(`create database ${database}`);
    await client.end();
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${database}`;
    const dir = tempDir('pw-e2e-groups-pg-');
    const extra = { DATABASE_URL: url.toString(), REDIS_URL };
    const first = CloudProcess.env(dir, await freePort(), extra);
    const org = await CloudProcess.bootstrap(first, 'Group shop on two instances');
    clouds.push(await CloudProcess.start(first));
    clouds.push(await CloudProcess.start(CloudProcess.env(dir, await freePort(), extra)));
    setup = await start(clouds, org, tempDir('pw-e2e-groups-pg-agent-'));
  });
  after(async () => {
    await setup?.agent.kill();
    for (const c of clouds) await c.stop();
    for (const p of setup?.printers ?? []) await p.stop();
    await setup?.receiver.close();
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
  });
  groupCases(() => setup);
});
