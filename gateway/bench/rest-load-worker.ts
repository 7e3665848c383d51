// Bench helper process (forked with IPC), started once and kept: on each `run` message it keeps
// `concurrency` keep-alive requests in flight against a URL for `durationMs` and answers the
// throughput, so the api's direct and proxied rates are measured the same way by a warm client.
import { Agent, request } from 'node:http';

interface Run {
  type: 'run';
  url: string;
  token: string;
  concurrency: number;
  durationMs: number;
}

const agents = new Map<string, Agent>();

function once(agent: Agent, target: URL, token: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      },
    );
    req.on('error', () => resolve(false));
    // A request a wedged gateway never answers counts as failed after 10 s instead of holding the
    // bench for ever (a 20,000-tab storm left the first gateway's accept queue full; README, Part 17).
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.end();
  });
}

async function run({
  url,
  token,
  concurrency,
  durationMs,
}: Run): Promise<{ rps: number; requests: number; errors: number }> {
  const target = new URL(url);
  let agent = agents.get(target.host);
  if (!agent) agents.set(target.host, (agent = new Agent({ keepAlive: true, maxSockets: concurrency })));
  let done = 0;
  let errors = 0;
  const started = Date.now();
  const deadline = started + durationMs;
  const loop = async () => {
    while (Date.now() < deadline) {
      if (await once(agent, target, token)) done++;
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { rps: done / ((Date.now() - started) / 1000), requests: done, errors };
}

process.on('message', (m: Run | { type: 'close' }) => {
  if (m.type === 'run') void run(m).then((r) => process.send!({ type: 'rate', ...r }));
  else {
    for (const agent of agents.values()) agent.destroy();
    process.send!({ type: 'closed' }, () => process.disconnect());
  }
});
