// Bench helper process (forked with IPC): keeps `concurrency` keep-alive requests in flight for `durationMs` and
// reports the throughput, so the api's direct and proxied rates are measured the same way.
import { Agent, request } from 'node:http';

const { url, token, concurrency, durationMs } = JSON.parse(process.env.BENCH_LOAD ?? '{}') as {
  url: string;
  token: string;
  concurrency: number;
  durationMs: number;
};
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(url);
let done = 0;
let errors = 0;
const started = Date.now();
const deadline = started + durationMs;

function once(): Promise<void> {
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
        res.on('end', () => {
          if (res.statusCode === 200) done++;
          else errors++;
          resolve();
        });
      },
    );
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end();
  });
}

async function loop(): Promise<void> {
  while (Date.now() < deadline) await once();
}

await Promise.all(Array.from({ length: concurrency }, loop));
const seconds = (Date.now() - started) / 1000;
agent.destroy();
process.send!({ requests: done, errors, rps: done / seconds }, () => process.disconnect());
