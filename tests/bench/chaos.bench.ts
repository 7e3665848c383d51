// The long chaos run (issue 35, README "Chaos run"): 1,000 faults (CHAOS_FAULTS) at random from a
// seed (CHAOS_SEED, else random, printed) over the whole topology while residents write and
// console tabs listen; one JSON line with losses, duplicates, wrong counters, missed alarms, the
// worst alarm delay and each fault kind's figures. The short run is tests/ops/chaos.postgres.redis.test.ts.
import { runChaos } from '../chaos/harness';

const report = await runChaos({
  seed: Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31)),
  faults: Number(process.env.CHAOS_FAULTS ?? 1000),
  concurrent: Number(process.env.CHAOS_CONCURRENT ?? 3),
  faultEveryMs: Number(process.env.CHAOS_EVERY_MS ?? 400),
  writesPerSecond: 6,
  tabs: 4,
  warningEveryMs: 10_000,
  browser: true,
  print: (line) => process.stderr.write(`${line}\n`),
});
console.log(JSON.stringify({ bench: 'chaos', ...report }));
