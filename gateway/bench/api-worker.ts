// Bench helper process (forked with IPC): a real api in a process of its own, so that a bench's
// tabs never wait on the api's embedded database. PGlite runs inside the api's event loop: with the
// api in the bench's own process, every statement it runs also holds back the tabs' sockets there,
// and the bench would time its own queue instead of the product.
//
// Messages in → out:
//   { type: 'start', dataDir, databaseUrl? }   → { type: 'started', url }
//   { type: 'persons', count, roleId }         → { type: 'persons', persons: BenchStaff[] } (bench staff holding that role)
//   { type: 'connections' }                    → { type: 'connections', count } (upstream connections at the api)
//   { type: 'close' }                          → { type: 'closed' }, then the process ends
import { inArray } from 'drizzle-orm';
import { account } from '../../api/src/db/schema';
import { startApi } from '../../api/src/server';
import { createBenchPersons, type BenchApi } from './bench-accounts';

type Message =
  | { type: 'start'; dataDir: string; databaseUrl?: string }
  | { type: 'persons'; count: number; roleId: number }
  | { type: 'connections' }
  | { type: 'close' };

let api: BenchApi | null = null;
const send = (m: object) => process.send!(m);

process.on('message', async (m: Message) => {
  try {
    if (m.type === 'start') {
      api = (await startApi({
        port: 0,
        seed: true,
        dataDir: m.dataDir,
        databaseUrl: m.databaseUrl,
        logLevel: 'silent',
      })) as BenchApi;
      send({ type: 'started', url: api.url });
    } else if (m.type === 'persons') {
      const persons = await createBenchPersons(api!, m.count);
      const ids = persons.map((p) => p.accountId);
      await api!.db.update(account).set({ roleId: m.roleId }).where(inArray(account.id, ids));
      send({ type: 'persons', persons });
    } else if (m.type === 'connections') {
      send({ type: 'connections', count: api!.realtime.connectionCount() });
    } else if (m.type === 'close') {
      await Promise.race([api?.close(), new Promise((r) => setTimeout(r, 5000))]);
      process.send!({ type: 'closed' }, () => process.exit(0));
    }
  } catch (err) {
    send({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
});
