// The bench's api in a process of its own (BENCH_API=process, issue 34): in the bench's own
// process the api shared an event loop with the bench's bookkeeping and opened about 2 upstreams
// a second in a reconnect storm. On PostgreSQL with BENCH_DATABASE_URL (a database of its own:
// it is migrated and seeded), else on PGlite in a temporary directory. Answers the bench over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createBenchStaff } from '../../api/bench/bench-staff';
import type { BenchApi } from './bench-accounts';

type Request =
  | { type: 'persons'; count: number }
  | { type: 'upstreams' }
  | { type: 'publish'; pushes: [number, Record<string, unknown>][] }
  | { type: 'close' };

const send = (m: Record<string, unknown>) => process.send!(m);

async function main(): Promise<void> {
  const root = resolve(import.meta.dirname, '../..');
  const modulePath = process.env.GATEWAY_BENCH_API_MODULE ?? join(root, 'api/src/server.ts');
  const { startApi } = (await import(pathToFileURL(modulePath).href)) as {
    startApi(o: {
      port?: number;
      seed?: boolean;
      dataDir?: string;
      databaseUrl?: string;
      logLevel?: string;
    }): Promise<BenchApi>;
  };
  const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
  const api = await startApi({
    port: Number(process.env.BENCH_API_PORT ?? 0),
    seed: true,
    ...(databaseUrl ? { databaseUrl } : { dataDir: mkdtempSync(join(tmpdir(), 'gateway-bench-api-')) }),
    logLevel: 'silent',
  });
  process.on('message', (m: Request) => {
    if (m.type === 'persons')
      void createBenchStaff(api.db, m.count, { prefix: `bench${Date.now().toString(36)}` }).then(
        (staff) => send({ type: 'persons', staff: staff.map((s) => ({ token: s.token, personId: s.personId })) }),
        (err: Error) => send({ type: 'persons', error: err.message }),
      );
    else if (m.type === 'upstreams') send({ type: 'upstreams', count: api.realtime.connectionCount() });
    else if (m.type === 'publish')
      for (const [personId, message] of m.pushes) void api.realtime.publish([personId], message);
    else if (m.type === 'close') void api.close().then(() => process.exit(0));
  });
  send({ type: 'ready', url: api.url, engine: databaseUrl ? 'postgres' : 'pglite' });
}

main().catch((err: Error) => {
  process.stderr.write(`[bench api] ${err.stack ?? err.message}\n`);
  process.exit(1);
});
