import { hash } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from 'pino';
import type { LiveCounters, UpstreamMessage } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { createLocalBus, type EventBus, type PersonId } from './event-bus';
import { createPgEventBus } from './pg-event-bus';
import { CLOSE_IDLE, CLOSE_TOKEN_REVOKED, ConnectionRegistry, sendTo, type Connection } from './connection-registry';
import { CountersCache } from './counters-cache';
import { type Push, type PushJournal, type StampedPush } from './push-journal';
import { ResumeStream } from './resume-stream';

/** Who a token belongs to; null when the token is unknown, revoked or expired. */
export interface VerifiedToken {
  personId: PersonId;
  /** Epoch ms; the connection is closed with 4001 when the token expires. */
  expiresAt?: number;
}
export type VerifyToken = (token: string) => Promise<VerifiedToken | null>;

export interface RealtimeOptions {
  verifyToken: VerifyToken;
  /** postgres:// URL: fan out across api instances through LISTEN/NOTIFY. Absent: in-process. */
  databaseUrl?: string;
  /** NOTIFY channel (instances on one database that should share events use the same one). */
  channel?: string;
  /** A connection that sends nothing for this long is closed with 4000 (contract: 35 s). */
  idleMs?: number;
  log?: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  /** A bus to use instead of building one (tests). */
  bus?: EventBus;
  /**
   * Numbers and keeps every push (issue 14): pushes then carry `pushSeq` and a connection opened
   * with `?after=N` is sent what it missed. Without it pushes are live only.
   */
  journal?: PushJournal;
  /**
   * The token's live counters (`GET /realtime/counters`'s answer; null: the token is not valid).
   * With it, a resuming upstream that asks with `counters=1` gets them in its first message
   * (issue 34: one api call per person instead of three when thousands of tabs come back).
   */
  firstCounters?: (token: string) => Promise<LiveCounters | null>;
}

/** The `realtime` handle of startApi (docs/internal-contract.md), used by every module that pushes. */
export interface RealtimeHandle {
  /**
   * Pushes a message to every open connection of each person, on every api instance, live only:
   * not numbered, not journaled, never sent again (tests and benchmarks). A push that reports a
   * change goes through `withPushes` (message/push-outbox.ts), which journals it with the change.
   */
  publish(personIds: Iterable<PersonId>, message: UpstreamMessage): Promise<void>;
  /**
   * Journals pushes inside the caller's transaction (call it last, just before the commit); null
   * without a journal. Publish the answer with {@link publishStamped} once the transaction committed.
   */
  record(tx: DbOrTx, pushes: Push[]): Promise<StampedPush[] | null>;
  /** Pushes what {@link record} numbered, to every api instance. */
  publishStamped(pushes: StampedPush[]): Promise<void>;
  /**
   * The live counters' answers kept for the persons whose upstream this instance holds, dropped
   * by their pushes before the pushes are written to the upstream (counters-cache.ts).
   */
  readonly counters: CountersCache;
  /** Open upstream sockets on this instance (of one person, or all). */
  connectionCount(personId?: PersonId): number;
  /** Drops a person's sockets abruptly on this instance (the peer sees 1006). */
  terminate(personId: PersonId): void;
  /** Closes, on every instance, the connections opened with this token (code 4001). */
  revokeToken(token: string): Promise<void>;
  /** The same, for a token known only by its stored hash (sha256 hex, see {@link hashToken}). */
  revokeTokenHash(tokenHash: string): Promise<void>;
  close(): Promise<void>;
}

export const IDLE_MS = 35_000;
/** A token check at expiry that failed (the database away) is tried again after this long. */
const RECHECK_MS = 5_000;
const MAX_INCOMING_BYTES = 64 * 1024;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** sha256 hex of a token: how connections remember their token (the raw token is never kept). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/**
 * `/{token}/{personId}`, optionally `?after=N` or `?after=latest` (resume: see docs/internal-contract.md).
 * `after` is null without the parameter and undefined when it is not a valid value.
 */
function parsePath(url: string | undefined): {
  token: string;
  personId: string;
  after: number | 'latest' | null | undefined;
  gateway: string | null | undefined;
  counters: boolean | undefined;
} | null {
  const [path, query] = (url ?? '').split('?', 2);
  const m = /^\/([^/]+)\/([^/]+)\/?$/.exec(path);
  if (!m) return null;
  const params = new URLSearchParams(query ?? '');
  const raw = params.get('after');
  // The gateway instance (issue 31: fan-out frames); an opaque id of letters, digits, - and _.
  const gw = params.get('gw');
  const gateway = gw === null ? null : /^[\w-]{1,64}$/.test(gw) ? gw : undefined;
  const after = raw === null ? null : raw === 'latest' ? 'latest' : /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
  // Counters in the first message (opt-in, resuming connections only): `counters=1`.
  const c = params.get('counters');
  const counters = c === null ? false : c === '1' ? true : undefined;
  try {
    return {
      token: decodeURIComponent(m[1]).replace(/^Bearer\s+/i, ''),
      personId: decodeURIComponent(m[2]),
      after,
      gateway,
      counters,
    };
  } catch {
    return null;
  }
}

function refuse(socket: Duplex, status: number, text: string): void {
  const body = JSON.stringify({ code: status, msg: text, data: null });
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * The real-time channel of SPEC §7 on the api's HTTP server: WebSocket upgrades at
 * `/{token}/{personId}` are accepted only when the token is valid and belongs to that person,
 * heartbeats are answered, silent connections are closed, and pushes arrive through the bus.
 */
export async function attachRealtime(server: Server, options: RealtimeOptions): Promise<RealtimeHandle> {
  const log = options.log;
  const idleMs = options.idleMs ?? IDLE_MS;
  const bus =
    options.bus ??
    (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)
      ? await createPgEventBus({ connectionString: options.databaseUrl, channel: options.channel, log })
      : createLocalBus());
  const registry = new ConnectionRegistry();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_INCOMING_BYTES });

  const journal = options.journal;
  const counters = new CountersCache((personId) => registry.count(personId) > 0);
  bus.onEnvelope((envelope) => {
    if (envelope.kind === 'push') {
      // The kept counters go first: once the push is on an upstream, no answer may precede it.
      for (const personId of envelope.personIds) counters.drop(personId);
      registry.deliver(envelope.personIds, envelope.message, envelope.seqs);
    } else if (envelope.kind === 'revoke')
      registry.closeByToken(envelope.tokenHash, CLOSE_TOKEN_REVOKED, 'token revoked');
  });
  // The journal is pruned with the rest of what the api keeps for a while (db/retention.ts).

  const onConnection = (
    socket: WebSocket,
    connection: Connection,
    token: string,
    expiresAt: number | undefined,
    resumeAfter: number | null,
    firstCounters: LiveCounters | null,
  ) => {
    if (journal && resumeAfter !== null) {
      const personId = connection.personId;
      connection.stream = new ResumeStream(
        resumeAfter,
        (afterSeq, limit) => journal.after(personId, afterSeq, limit),
        (text) => sendTo(socket, text),
        (err) => {
          log?.error({ err }, 'realtime: journal unreadable; dropping the connection so it resumes again');
          socket.terminate();
        },
      );
    }
    // A resuming upstream is sent journaled pushes past the bus: the kept counters go first.
    counters.drop(connection.personId);
    registry.add(connection);
    if (connection.stream) {
      // First the point the stream continues after, then what the journal holds after it, then live pushes.
      // Asked for (`counters=1`): the counters as of their own push number (at least resumeAfter)
      // come with it, so the gateway reads none separately; the pushes the stream then sends up to
      // that number are already counted (the gateway's LiveState applies only the later ones).
      socket.send(
        JSON.stringify({
          channelType: 'heartbeat',
          time: Date.now(),
          pushSeq: resumeAfter,
          ...(firstCounters ? { counters: firstCounters } : {}),
        }),
      );
      connection.stream.start();
    }
    const idle = setTimeout(() => socket.close(CLOSE_IDLE, 'idle'), idleMs);
    // At the token's expiry it is verified again: a wall screen's session renews itself while in
    // use (TokenService.verify), so the socket follows the new expiry; any other token ends here.
    let expiry: NodeJS.Timeout | undefined;
    let closed = false;
    const armExpiry = (at: number) => {
      expiry = setTimeout(
        () => {
          let unchecked = false;
          void options
            .verifyToken(token)
            .catch(() => {
              unchecked = true;
              return null;
            })
            .then((verified) => {
              if (closed) return;
              // The check failed (database away): asked again shortly, the socket kept meanwhile.
              if (unchecked) return armExpiry(Date.now() + RECHECK_MS);
              const next = verified?.expiresAt;
              if (
                verified &&
                String(verified.personId) === connection.personId &&
                next !== undefined &&
                next > Date.now()
              )
                armExpiry(next);
              else socket.close(CLOSE_TOKEN_REVOKED, 'token expired');
            });
        },
        Math.min(MAX_TIMER_MS, Math.max(0, at - Date.now())),
      );
    };
    if (expiresAt !== undefined) armExpiry(expiresAt);
    socket.on('message', (data) => {
      idle.refresh();
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.toString());
      } catch {
        return; // not JSON: it still counts as a sign of life, nothing else to do
      }
      if (parsed && typeof parsed === 'object' && (parsed as { channelType?: unknown }).channelType === 'heartbeat') {
        socket.send(JSON.stringify({ channelType: 'heartbeat', time: Date.now() }));
      }
    });
    socket.on('error', (err) => log?.debug({ err }, 'realtime: socket error'));
    socket.on('close', () => {
      closed = true;
      clearTimeout(idle);
      if (expiry) clearTimeout(expiry);
      connection.stream?.close();
      registry.remove(connection);
      counters.drop(connection.personId);
    });
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const target = parsePath(req.url);
    if (!target) return refuse(socket, 404, 'Not Found');
    if (target.after === undefined || target.gateway === undefined || target.counters === undefined)
      return refuse(socket, 400, 'Bad Request');
    // Counters come only with a resuming stream (they are as of a push number the stream follows).
    if (target.counters && (target.after === null || !journal)) return refuse(socket, 400, 'Bad Request');
    const after = target.after;
    // A token check that failed (the database away: restarting, its link cut) is no answer about
    // the token: 503, which the gateway retries, not 401, which it takes for a revoked token and
    // signs the person's tabs out with (issue 35, the chaos run).
    let unchecked = false;
    options
      .verifyToken(target.token)
      .catch((err) => {
        log?.error({ err }, 'realtime: token check failed');
        unchecked = true;
        return null;
      })
      .then(async (verified) => {
        if (unchecked) return refuse(socket, 503, 'Service Unavailable');
        if (!verified || String(verified.personId) !== target.personId) return refuse(socket, 401, 'Unauthorized');
        if (verified.expiresAt !== undefined && verified.expiresAt <= Date.now())
          return refuse(socket, 401, 'Unauthorized');
        // Where a resuming stream starts is read before the upgrade completes, so anything the peer
        // loads after the open (its counters) is at least as recent. A peer that knows a number the
        // journal never reached (a database restored from a backup) starts at the current one.
        let resumeAfter: number | null = null;
        if (journal && after !== null) {
          try {
            const current = await journal.currentSeq(target.personId);
            resumeAfter = after === 'latest' || after > current ? current : after;
          } catch (err) {
            log?.error({ err }, 'realtime: push sequence unreadable');
            return refuse(socket, 503, 'Service Unavailable');
          }
        }
        // Read after the stream's starting point, so they are as of a number at least as recent.
        let firstCounters: LiveCounters | null = null;
        if (target.counters && options.firstCounters) {
          let failed = false;
          firstCounters = await options.firstCounters(target.token).catch((err: unknown) => {
            log?.error({ err }, 'realtime: counters for the first message unreadable');
            failed = true;
            return null;
          });
          if (failed) return refuse(socket, 503, 'Service Unavailable');
          if (!firstCounters) return refuse(socket, 401, 'Unauthorized');
        }
        wss.handleUpgrade(req, socket, head, (ws) => {
          onConnection(
            ws,
            {
              socket: ws,
              personId: target.personId,
              tokenHash: hashToken(target.token),
              ...(target.gateway ? { gateway: target.gateway } : {}),
            },
            target.token,
            verified.expiresAt,
            resumeAfter,
            firstCounters,
          );
        });
      });
  };
  server.on('upgrade', onUpgrade);

  const publishStamped = async (pushes: StampedPush[]) => {
    // The change is committed: this process's kept counters of its persons go now, not when the
    // bus hands the push back (PostgreSQL's NOTIFY takes a round trip), so the caller's next
    // counters call from this process already counts it. The bus's drop below stays for the rest.
    for (const p of pushes) for (const personId of p.personIds) counters.drop(personId);
    // One after another: the bus keeps their order, so a connection rarely has to fill a gap.
    for (const p of pushes)
      if (p.personIds.length > 0)
        await bus.publish({ kind: 'push', personIds: p.personIds, message: p.message, seqs: p.seqs });
  };

  return {
    async publish(personIds, message) {
      const ids = [...new Set([...personIds].map(String))];
      if (ids.length === 0) return;
      for (const personId of ids) counters.drop(personId);
      await bus.publish({ kind: 'push', personIds: ids, message });
    },
    record: async (tx, pushes) => (journal ? journal.record(tx, pushes) : null),
    publishStamped,
    counters,
    connectionCount: (personId) => registry.count(personId),
    terminate: (personId) => registry.terminate(personId),
    async revokeToken(token) {
      await bus.publish({ kind: 'revoke', tokenHash: hashToken(token) });
    },
    async revokeTokenHash(tokenHash) {
      await bus.publish({ kind: 'revoke', tokenHash });
    },
    async close() {
      server.off('upgrade', onUpgrade);
      for (const c of registry.all()) c.socket.close(1001, 'server shutting down');
      const closed = new Promise<void>((resolve) => wss.close(() => resolve()));
      // Peers get a moment to answer the close handshake; then the rest are dropped.
      const grace = new Promise<void>((resolve) => setTimeout(resolve, 1000).unref());
      await Promise.race([closed, grace]);
      for (const c of wss.clients) c.terminate();
      await closed;
      await bus.close();
    },
  };
}
