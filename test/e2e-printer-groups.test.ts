/**
 * End to end, printer groups on SQLite with one cloud (the cases are in
 * e2e-printer-groups-support.ts; the same on PostgreSQL + Redis in
 * e2e-printer-groups-postgres.test.ts).
 */
import { after, before, describe } from 'node:test';
import { CloudProcess, freePort, tempDir } from './e2e-support.js';
import { groupCases, start, type Setup } from './e2e-printer-groups-support.js';

describe('printer groups end to end (SQLite, one cloud)', () => {
  let setup: Setup;
  let cloud: CloudProcess;
  before(async () => {
    const env = CloudProcess.env(tempDir('pw-e2e-groups-'), await freePort());
    const org = await CloudProcess.bootstrap(env, 'Group shop');
    cloud = await CloudProcess.start(env);
    setup = await start([cloud], org, tempDir('pw-e2e-groups-agent-'));
  });
  after(async () => {
    await setup?.agent.kill();
    await cloud?.stop();
    for (const p of setup?.printers ?? []) await p.stop();
    await setup?.receiver.close();
  });
  groupCases(() => setup);
});
