/**
 * Idle agents on one cloud process: memory per connected agent and the CPU one heartbeat costs,
 * at 2,000 and 10,000 connections (`BENCH_AGENTS=2000,10000`). The agents are light protocol
 * clients in this process (a WebSocket, hello, heartbeats), not full agents. Baseline in the same
 * run: a bare `ws` server in its own process that parses each message as JSON and nothing else.
 * Each connection holds a file descriptor on both sides: the bench needs `ulimit -n` above the
 * agent count + a few hundred (it says so and stops otherwise).
 */
import { spawn, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { hashSecret, Store } from '@printwire/cloud';
import { CloudProcess, freePort, tempDir } from '../test/e2e-support.js';
import { fmt } from './lib.js';

const COUNTS = (process.env.BENCH_AGENTS ?? '2000,10000').split(',').map(Number);
const limit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
const max = Math.max(...COUNTS);
if (Number.isFinite(limit) && limit < max + 300) {
  console.log(`ulimit -n is ${limit}: raise it above ${max + 300} (ulimit -n 20000) and run again`);
  process.exit(0);
}

const rssKb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, 100 Hz
};

async function connectAll(url: string, tokens: string[]): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < tokens.length; i += 200) {
    const batch = tokens.slice(i, i + 200).map(
      (token, j) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
          ws.once('open', () => {
            ws.send(
              JSON.stringify({
                type: 'hello',
                id: `h${i + j}`,
                protocolVersion: 1,
                agentVersion: '0.1.0',
                os: 'linux',
                arch: 'x64',
                hostname: `till-${i + j}`,
                printers: [],
              }),
            );
          });
          ws.once('message', () => resolve(ws)); // welcome (or the baseline's echo)
          ws.once('error', reject);
        }),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  return sockets;
}

async function heartbeatRound(sockets: WebSocket[], pid: number): Promise<number> {
  const before = cpuMs(pid);
  const text = JSON.stringify({
    type: 'heartbeat',
    sentAt: new Date().toISOString(),
    queue: { queued: 0, printing: 0 },
  });
  for (const ws of sockets) ws.send(text);
  // Let the server drain them: wait until its CPU time stops moving.
  let last = -1;
  for (let now = cpuMs(pid); now !== last; now = cpuMs(pid)) {
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return ((cpuMs(pid) - before) * 1000) / sockets.length; // µs per heartbeat
}

const BASELINE = `
const { WebSocketServer } = require('ws');
const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
wss.on('listening', () => console.log(wss.address().port));
wss.on('connection', (ws) => ws.on('message', (m) => { const msg = JSON.parse(m); if (msg.type === 'hello') ws.send('{"type":"welcome"}'); }));
`;

for (const n of COUNTS) {
  // The cloud, with n activated devices written straight into its database.
  const dir = tempDir('pw-bench-agents-');
  const env = CloudProcess.env(dir, await freePort(), { AGENT_HEARTBEAT_INTERVAL_MS: '300000' });
  const org = await CloudProcess.bootstrap(env, 'Agents bench');
  const store = await Store.open({ url: join(dir, 'printwire.db') });
  const tokens = Array.from({ length: n }, (_, i) => `pwd_bench_${i}_${org.orgId}`);
  for (let i = 0; i < n; i += 500) {
    await Promise.all(
      tokens.slice(i, i + 500).map((t, j) =>
        store.inventory.createDevice(
          org.orgId,
          {
            name: `till-${i + j}`,
            os: 'linux',
            arch: 'x64',
            agentVersion: '0.1.0',
            tokenHash: hashSecret(t),
          },
          Date.now(),
        ),
      ),
    );
  }
  await store.close();
  const cloud = await CloudProcess.start(env);
  const pid = cloud.child.pid!;
  const idleKb = rssKb(pid);
  const cloudSockets = await connectAll(
    cloud.url.replace('http', 'ws') + '/agent/v1/connect',
    tokens,
  );
  const cloudKb = rssKb(pid);
  const cloudHeartbeatUs = await heartbeatRound(cloudSockets, pid);
  for (const ws of cloudSockets) ws.terminate();
  await cloud.stop();

  const bare = spawn(process.execPath, ['-e', BASELINE], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: new URL('../cloud', import.meta.url).pathname,
  });
  const [portLine] = (await once(bare.stdout!, 'data')) as [Buffer];
  const bareIdleKb = rssKb(bare.pid!);
  const bareSockets = await connectAll(`ws://127.0.0.1:${String(portLine).trim()}`, tokens);
  const bareKb = rssKb(bare.pid!);
  const bareHeartbeatUs = await heartbeatRound(bareSockets, bare.pid!);
  for (const ws of bareSockets) ws.terminate();
  bare.kill();

  const perCloud = (cloudKb - idleKb) / n;
  const perBare = (bareKb - bareIdleKb) / n;
  console.log(
    `${String(n).padStart(6)} agents  cloud ${fmt(perCloud)} KB/agent (RSS ${fmt(cloudKb / 1024)} MB), ` +
      `heartbeat ${fmt(cloudHeartbeatUs)} µs CPU  |  bare ws ${fmt(perBare)} KB/agent (RSS ${fmt(bareKb / 1024)} MB), ` +
      `heartbeat ${fmt(bareHeartbeatUs)} µs CPU`,
  );
}
