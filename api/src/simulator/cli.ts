// `npm run simulate`: residents using the resident API over HTTP against a running product,
// so the console, wall screens and load tests have something happening (DESIGN §5).
import { parseArgs } from 'node:util';
import { ACTIONS, runSimulation, type Action } from './run-simulation';

const USAGE = `usage: npm run simulate -- [options]
  --url <base>        api base URL (default http://127.0.0.1:8080/api, the gateway)
  --rate <n>          actions per second over all residents (default 1)
  --duration <s>      seconds to run, 0 = until Ctrl+C (default 60)
  --residents <n>     residents resident1…residentN to sign in (default 5)
  --actions <list>    comma-separated: ${ACTIONS.join(',')} (default complain,eventOrder,sos,reply,chat,punch;
                      punch: the demo staff account punches in and out, issue 32)
  --password <p>      residents' password (default resident123)`;

function positive(name: string, value: string, allowZero = false): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0))
    throw new Error(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:8080/api' },
      rate: { type: 'string', default: '1' },
      duration: { type: 'string', default: '60' },
      residents: { type: 'string', default: '5' },
      actions: { type: 'string', default: 'complain,eventOrder,sos,reply,chat,punch' },
      password: { type: 'string', default: 'resident123' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return void console.log(USAGE);
  const actions = values.actions
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const unknown = actions.filter((a) => !(ACTIONS as readonly string[]).includes(a));
  if (unknown.length || actions.length === 0)
    throw new Error(`unknown action(s) ${unknown.join(', ')}; choose from ${ACTIONS.join(', ')}`);

  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const options = {
    url: values.url.replace(/\/$/, ''),
    rate: positive('rate', values.rate),
    duration: positive('duration', values.duration, true),
    residents: Math.floor(positive('residents', values.residents)),
    actions: actions as Action[],
    password: values.password,
    print: (line: string) => console.log(line),
    signal: controller.signal,
  };
  console.log(
    `simulating ${options.residents} resident(s) at ${options.rate}/s for ${options.duration || '∞'} s against ${options.url}: ${actions.join(', ')}`,
  );
  const counts = await runSimulation(options);
  console.log(
    `done: ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
}

main().catch((err: unknown) => {
  console.error(`simulator: ${(err as Error).message}\n${USAGE}`);
  process.exit(1);
});
