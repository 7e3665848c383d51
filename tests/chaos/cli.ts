// `npm run chaos [-- --faults 1000 --concurrent 3 --seed 42 --every 400 --writes 8 --tabs 4 --warnings 10000 --no-retry --no-browser]`:
// the chaos run of the whole product (harness.ts, README "Chaos run"). Progress goes to stderr;
// the last line on stdout is the report as one JSON line. It exits 1 when anything acknowledged
// was lost or doubled, a counter was wrong, an alarm missed or a process left down.
import { parseArgs } from 'node:util';
import { runChaos } from './harness';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    faults: { type: 'string', default: '1000' },
    concurrent: { type: 'string', default: '3' },
    every: { type: 'string', default: '400' },
    writes: { type: 'string', default: '8' },
    tabs: { type: 'string', default: '4' },
    warnings: { type: 'string', default: '10000' },
    'no-retry': { type: 'boolean', default: false },
    'no-browser': { type: 'boolean', default: false },
  },
});
const seed = values.seed ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const report = await runChaos({
  seed,
  faults: Number(values.faults),
  concurrent: Number(values.concurrent),
  faultEveryMs: Number(values.every),
  writesPerSecond: Number(values.writes),
  tabs: Number(values.tabs),
  warningEveryMs: Number(values.warnings),
  retryCatchUp: !values['no-retry'],
  browser: !values['no-browser'],
  print: (line) => process.stderr.write(`${line}\n`),
});
console.log(JSON.stringify({ bench: 'chaos', ...report }));
const bad =
  report.lost +
    report.duplicates +
    report.countersWrong +
    report.alarmsMissed +
    report.warningsMissed +
    report.chatMissing +
    report.chatDuplicates +
    report.chatOutOfOrder +
    report.processesDown.length +
    report.crashes.length >
  0;
process.exit(bad ? 1 : 0);
