import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { timePgClient, timePglite, timePgPool, type ObserveQuery } from '../metrics/db-timing';
import type { Db } from './database-types';
import { watchPglite, watchPgPool, type OnWrite } from './write-watch';
import { lockDataDir, type LockOptions } from './data-dir-lock';
import * as schema from './schema';
import { queryRows } from './sql';
import { PipelinedReads, pipelineReads } from './pipelined-reads';

export type { Db, DbOrTx, Schema, Tx } from './database-types';

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** The postgres:// URL when on PostgreSQL (the realtime bus LISTENs through it). */
  databaseUrl?: string;
  /** true when the schema had no tables before the migrations ran (a fresh database). */
  fresh: boolean;
  /**
   * Embedded database only: runs `work` while no query or transaction runs (after a CHECKPOINT),
   * so its files can be copied consistently (api/src/backup).
   */
  quiesce?<T>(work: () => Promise<T>): Promise<T>;
  /** PostgreSQL pool connections (absent on PGlite, which has one in-process connection). */
  poolStats?(): { total: number; idle: number; waiting: number };
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url));

async function isEmpty(db: Db): Promise<boolean> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from information_schema.tables where table_schema = current_schema() and table_name = 'account'`,
  );
  if (rows[0].n === 0) return true;
  const accounts = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from account`);
  return accounts[0].n === 0;
}

/**
 * Opens the database: PostgreSQL when `databaseUrl` is given, otherwise embedded PGlite under
 * `dataDir` (in memory when dataDir is absent, as tests do), then applies the versioned
 * migrations of api/drizzle. The migrations table lives in the connection's current schema,
 * so a test run on its own schema (search_path in the URL) migrates independently.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  /** What the embedded directory's lock reports (lost while held, or not supported here). */
  lock?: LockOptions;
  /** Told each query's duration (api metrics). */
  onQuery?: ObserveQuery;
  /** Told the tables each committed write wrote (db/write-watch.ts: kept answers are dropped by it). */
  onWrite?: OnWrite;
  /**
   * Embedded database only: start from this dump (`PGlite.dumpDataDir`) instead of an empty
   * database; the migrations then find their work done. The test kit's migrated and seeded
   * template (api/test/kit/db-template.ts); the product never sets it.
   */
  loadDataDir?: Blob;
  /**
   * PostgreSQL only: how many pipelined connections carry the prepared reads (db/pipelined-reads.ts;
   * default 2, 0 = none: they go through the pool).
   */
  pipelineConnections?: number;
}): Promise<Database> {
  if (options.databaseUrl) {
    const url = options.databaseUrl;
    // Migrate on one dedicated connection holding an advisory lock, so two api instances
    // starting together never run the same migration twice.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let fresh: boolean;
    try {
      await client.query('select pg_advisory_lock(726354)');
      const migrationDb = drizzlePg(client, { schema, casing: 'snake_case' });
      fresh = await isEmpty(migrationDb as unknown as Db);
      const current = await client.query<{ s: string }>('select current_schema() as s');
      await migratePg(migrationDb, { migrationsFolder: MIGRATIONS, migrationsSchema: current.rows[0].s });
      await client.query('select pg_advisory_unlock(726354)');
    } finally {
      await client.end();
    }
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => undefined); // a dropped idle client is replaced on the next query
    // A client checked out by a transaction and idle between statements reports a server-side
    // disconnect (PostgreSQL restarting) as an 'error' event: without a listener Node would end
    // the process. The transaction's next statement fails instead and the pool drops the client.
    pool.on('connect', (client) => client.on('error', () => undefined));
    if (options.onQuery) timePgPool(pool, options.onQuery);
    if (options.onWrite) watchPgPool(pool, options.onWrite);
    const pipelined =
      options.pipelineConnections === 0
        ? undefined
        : new PipelinedReads(url, options.pipelineConnections ?? 2, (client) => {
            client.on('error', () => undefined);
            if (options.onQuery) timePgClient(client, options.onQuery);
          });
    if (pipelined) pipelineReads(pool, pipelined);
    const db = drizzlePg(pool, { schema, casing: 'snake_case' }) as unknown as Db;
    return {
      db,
      engine: 'postgres',
      databaseUrl: url,
      fresh,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      ping: async () => (await pool.query('select 1')).rowCount === 1,
      close: async () => {
        await pipelined?.close();
        await pool.end();
      },
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // One process per directory: a second one refuses to start (DataDirLockedError) before
  // PGlite opens a single file.
  const lock = options.dataDir ? await lockDataDir(options.dataDir, options.lock) : null;
  // pg_trgm backs the keyword search of the work lists (migration 0003), as on PostgreSQL.
  const client = new PGlite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, extensions: { pg_trgm } });
  try {
    await client.waitReady;
  } catch (err) {
    await lock?.release();
    throw err;
  }
  if (options.onQuery) timePglite(client, options.onQuery);
  if (options.onWrite) watchPglite(client, options.onWrite);
  const pgliteDb = drizzlePglite(client, { schema, casing: 'snake_case' });
  const db = pgliteDb as unknown as Db;
  const fresh = await isEmpty(db);
  await migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS });
  return {
    db,
    engine: 'pglite',
    fresh,
    quiesce: async (work) => {
      await client.exec('CHECKPOINT');
      // PGlite runs one transaction at a time: inside ours, no other query runs.
      return client.transaction(() => work());
    },
    ping: async () => (await client.query('select 1')).rows.length === 1,
    close: async () => {
      await client.close();
      await lock?.release();
    },
  };
}
