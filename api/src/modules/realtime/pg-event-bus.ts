import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import type { BusEnvelope, EventBus } from './event-bus';

export interface PgEventBusOptions {
  connectionString: string;
  /** NOTIFY channel; instances that should see each other's events use the same one. Default: per schema. */
  channel?: string;
  log?: Pick<Logger, 'warn' | 'error' | 'debug'>;
}

/**
 * NOTIFY payloads must stay under 8000 bytes. An envelope is serialized once and cut into
 * chunks of at most CHUNK_UNITS UTF-16 units (≤ 3 bytes each in UTF-8, so ≤ 7,500 bytes);
 * all chunks go in one statement, hence one transaction, so PostgreSQL delivers them
 * together and in order. Each notification is `id:index:count:text`.
 */
const CHUNK_UNITS = 2500;
/** A push larger than this is refused: it would be a bug, not an event. */
const MAX_ENVELOPE_UNITS = 1_000_000;
/**
 * At most this many UTF-16 units of payloads in one NOTIFY statement: envelopes published while a
 * statement is on its way go together in the next one (one round trip and one commit for many).
 */
const BATCH_UNITS = 1_000_000;
const PARTIAL_TTL_MS = 30_000;
const RECONNECT_MS = 1_000;

/** Splits text into chunks, never between the two halves of a surrogate pair. */
export function chunkText(text: string, size = CHUNK_UNITS): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = Math.min(i + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    out.push(text.slice(i, end));
    i = end;
  }
  return out.length ? out : [''];
}

/**
 * An event bus over PostgreSQL LISTEN/NOTIFY: publish sends NOTIFY, and every instance
 * (the publisher too) delivers what its LISTEN connection receives. Each instance therefore
 * sees each envelope once, whichever instance published it.
 */
export async function createPgEventBus(options: PgEventBusOptions): Promise<EventBus> {
  let channel = options.channel ?? '';
  if (channel && !/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid NOTIFY channel name: ${channel}`);
  const log = options.log;
  // One publishing connection: statements go one after another, so envelopes arrive in the order
  // they were published (two connections committed their NOTIFYs in either order).
  const pool = new pg.Pool({ connectionString: options.connectionString, max: 1 });
  pool.on('error', (err) => log?.warn({ err }, 'realtime bus: idle publish connection failed'));

  let handler: ((envelope: BusEnvelope) => void) | undefined;
  let listener: pg.Client | undefined;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;
  const partial = new Map<string, { parts: string[]; received: number; at: number }>();

  const deliver = (text: string) => {
    let envelope: BusEnvelope;
    try {
      envelope = JSON.parse(text) as BusEnvelope;
    } catch (err) {
      log?.warn({ err }, 'realtime bus: dropped an unreadable notification');
      return;
    }
    handler?.(envelope);
  };

  const onNotification = (note: pg.Notification) => {
    if (note.channel !== channel || note.payload === undefined) return;
    const m = /^([^:]+):(\d+):(\d+):/.exec(note.payload);
    if (!m) return;
    const [head, id, index, count] = [m[0], m[1], Number(m[2]), Number(m[3])];
    const text = note.payload.slice(head.length);
    if (count === 1) return deliver(text);
    const now = Date.now();
    for (const [key, p] of partial) if (now - p.at > PARTIAL_TTL_MS) partial.delete(key);
    const entry = partial.get(id) ?? { parts: new Array<string>(count), received: 0, at: now };
    if (entry.parts[index] === undefined) entry.received += 1;
    entry.parts[index] = text;
    partial.set(id, entry);
    if (entry.received === count) {
      partial.delete(id);
      deliver(entry.parts.join(''));
    }
  };

  const connectListener = async () => {
    const client = new pg.Client({ connectionString: options.connectionString });
    client.on('notification', onNotification);
    client.on('error', (err) => {
      log?.warn({ err }, 'realtime bus: LISTEN connection lost, reconnecting');
      scheduleReconnect(client);
    });
    client.on('end', () => scheduleReconnect(client));
    await client.connect();
    if (!channel) {
      // NOTIFY is database-wide: instances on different schemas (test runs) must not hear each other.
      const { rows } = await client.query<{ s: string }>('select current_schema() as s');
      channel = `pm_rt_${(rows[0]?.s ?? 'public').toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 63);
    }
    await client.query(`LISTEN ${channel}`);
    if (closed) return void (await client.end().catch(() => undefined));
    listener = client;
  };

  const scheduleReconnect = (failed: pg.Client) => {
    if (closed || listener !== failed || reconnectTimer) return;
    listener = undefined;
    failed.removeAllListeners('notification');
    failed.end().catch(() => undefined);
    reconnectTimer = setTimeout(() => void retry(), RECONNECT_MS);
  };
  const retry = async () => {
    reconnectTimer = undefined;
    try {
      await connectListener();
    } catch (err) {
      log?.error({ err }, 'realtime bus: could not reconnect LISTEN; retrying');
      if (!closed) reconnectTimer = setTimeout(() => void retry(), RECONNECT_MS);
    }
  };

  await connectListener();

  /**
   * Envelopes waiting for a statement, oldest first. Issue 31: one statement per envelope capped the
   * bus at one round trip and commit each (≈ 600 a second at load 12, PostgreSQL's commits of
   * NOTIFYs are serialised), so 2,000 background pushes a second queued a message's push behind
   * seconds of others; now all waiting envelopes go in the next statement.
   */
  const waiting: { payloads: string[]; units: number; done: () => void; fail: (err: unknown) => void }[] = [];
  let sending = false;
  const pump = async () => {
    if (sending) return;
    sending = true;
    try {
      while (waiting.length > 0) {
        let units = 0;
        let n = 0;
        while (n < waiting.length && (n === 0 || units + waiting[n].units <= BATCH_UNITS)) units += waiting[n++].units;
        const batch = waiting.splice(0, n);
        try {
          // One statement: its chunks commit together and arrive together, in order.
          await pool.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS t(p, n) ORDER BY n', [
            channel,
            batch.flatMap((b) => b.payloads),
          ]);
          for (const b of batch) b.done();
        } catch (err) {
          for (const b of batch) b.fail(err);
        }
      }
    } finally {
      sending = false;
    }
  };

  return {
    publish(envelope) {
      const text = JSON.stringify(envelope);
      if (text.length > MAX_ENVELOPE_UNITS) return Promise.reject(new Error('realtime push too large'));
      const chunks = chunkText(text);
      const id = randomUUID();
      const payloads = chunks.map((c, i) => `${id}:${i}:${chunks.length}:${c}`);
      return new Promise<void>((done, fail) => {
        waiting.push({ payloads, units: text.length, done, fail });
        void pump();
      });
    },
    onEnvelope(h) {
      handler = h;
    },
    async close() {
      closed = true;
      handler = undefined;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const client = listener;
      listener = undefined;
      if (client) {
        client.removeAllListeners('end');
        client.removeAllListeners('error');
        client.on('error', () => undefined);
        await client.end().catch(() => undefined);
      }
      await pool.end().catch(() => undefined);
    },
  };
}
