// Pipelined reads on PostgreSQL (issue 34, part 37). A pooled connection runs one statement at a
// time: its backend answers, then sleeps until the next one, and on loopback the api pays for
// waking it with every statement it writes (the write was ~30 % of a cold list page's api CPU).
// Here the hot prepared reads go to a few connections in node-postgres's pipeline mode: every
// statement is sent at once, each with its own Sync (so one statement's error fails that
// statement only), and the statements of one turn of the event loop leave in one write, so a busy
// backend reads several at a time instead of being woken for each.
import pg from 'pg';

/** What is used here of a node-postgres client's internals (pg 8.23: its socket, which Query.submit corks too). */
interface StreamOf {
  connection: { stream: { cork(): void; uncork(): void } };
}

/** A query config as drizzle hands it to the driver (name, text, type parsers, row mode). */
type QueryConfig = object;

interface Line {
  client: pg.Client;
  /** Statements sent and not yet answered. */
  inFlight: number;
  /** Corked until the end of this turn of the event loop. */
  corked: boolean;
  /** Ended or broken: replaced on the next statement. */
  dead: boolean;
}

export class PipelinedReads {
  private readonly lines: (Line | undefined)[];
  private closed = false;

  /**
   * `connections` pipelined connections to `url`, opened on first use. `onClient` is told each
   * client opened (the query timing wraps its `query`, as it does the pool's clients).
   */
  constructor(
    private readonly url: string,
    connections: number,
    private readonly onClient: (client: pg.Client) => void = () => undefined,
  ) {
    this.lines = new Array<Line | undefined>(connections).fill(undefined);
  }

  /**
   * Runs one read on one of the connections; a broken one is replaced.
   */
  query(config: QueryConfig, values: unknown[]): Promise<{ rows: unknown[] }> {
    if (this.closed) return Promise.reject(new Error('the database is closed'));
    // An idle connection first (the first one: a light load keeps one backend busy rather than
    // waking several), else a new one while there is room, else the least busy.
    let pick = -1;
    let empty = -1;
    for (let i = 0; i < this.lines.length; i++) {
      const l = this.lines[i];
      if (!l || l.dead) {
        if (empty === -1) empty = i;
        continue;
      }
      if (l.inFlight === 0) {
        pick = i;
        break;
      }
      if (pick === -1 || l.inFlight < this.lines[pick]!.inFlight) pick = i;
    }
    if (empty !== -1 && (pick === -1 || this.lines[pick]!.inFlight > 0)) {
      pick = empty;
      this.lines[pick] = this.open();
    }
    const line = this.lines[pick]!;
    if (!line.corked) {
      // Everything sent to this connection until the event loop's next check phase goes in one write.
      line.corked = true;
      const stream = (line.client as unknown as StreamOf).connection.stream;
      stream.cork();
      const corked = line;
      setImmediate(() => {
        corked.corked = false;
        stream.uncork();
      });
    }
    line.inFlight++;
    const done = line;
    return (done.client.query(config as pg.QueryConfig, values) as unknown as Promise<{ rows: unknown[] }>).finally(
      () => done.inFlight--,
    );
  }

  private open(): Line {
    const client = new pg.Client({ connectionString: this.url, pipeline: true });
    const line: Line = { client, inFlight: 0, corked: false, dead: false };
    // A server-side disconnect fails the statements in flight (their callers get the error) and
    // the next statement opens a new connection; never an unhandled 'error' event.
    client.on('error', () => (line.dead = true));
    client.on('end', () => (line.dead = true));
    this.onClient(client);
    // Statements sent before the connection is up wait in the client's queue; a failed connect
    // fails them.
    client.connect().catch(() => (line.dead = true));
    return line;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.lines.map((l) => l && !l.dead && l.client.end().catch(() => undefined)));
  }
}

/** A pool's pipelined reads (prepared.ts finds them from drizzle's client, the pool). */
const byPool = new WeakMap<pg.Pool, PipelinedReads>();

export function pipelineReads(pool: pg.Pool, reads: PipelinedReads): void {
  byPool.set(pool, reads);
}

/** The pipelined reads of `client` when it is a pool that has them. */
export function pipelinedReadsOf(client: object): PipelinedReads | undefined {
  return byPool.get(client as pg.Pool);
}

/**
 * DATABASE_PIPELINE: how many pipelined connections carry the prepared reads (0: none, they go
 * through the pool as before). A wrong value throws one clear line.
 */
export function pipelineFromEnv(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 2;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 64)
    throw new Error(`DATABASE_PIPELINE must be a number of connections from 0 to 64, not "${raw}"`);
  return n;
}
