// Bench helper, detached (README issue 34, "Part 22"): deletes a run's Redis keys (its prefix) once
// the bench process is gone, however it ended (a failure, Ctrl+C, SIGTERM from `timeout`, even
// SIGKILL, where no handler of its own runs: Part 17's stopped runs left their keys behind).
// node gateway/bench/redis-janitor.mjs <bench pid> <redis url> <prefix>
import { Redis } from 'ioredis';

const [pid, url, prefix] = process.argv.slice(2);
if (!pid || !url || !prefix || !prefix.endsWith(':')) process.exit(2);

const alive = () => {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch {
    return false;
  }
};

async function drop() {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

while (alive()) await new Promise((r) => setTimeout(r, 1000));
// Twice: a gateway killed with the bench may still write a key or two while it dies.
await drop().catch(() => undefined);
await new Promise((r) => setTimeout(r, 10_000));
await drop().catch(() => undefined);
