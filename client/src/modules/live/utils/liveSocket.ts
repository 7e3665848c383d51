import { io, type Socket } from 'socket.io-client';
import {
  allowedTopics,
  TOPICS,
  type ClientToServerEvents,
  type LiveEvent,
  type ServerToClientEvents,
  type Topic,
  firstReconnectPause,
  RECONNECT_MAX_MS,
} from '@pm/shared';
import {
  connectionClosed,
  connectionLive,
  connectionLost,
  liveState,
  receiveEvent,
  receiveSnapshot,
} from '../states/liveState';
import { emitLiveEvent } from './liveEvents';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface LiveOptions {
  token: string;
  perms: readonly string[];
  language: string;
  /**
   * The access digest of the profile the tab shows (`accessDigest` of its role value and
   * permissions), read at every (re)connect: the gateway tells the tab on the `access` topic when
   * its permissions differ, so a change made while the tab was loading is not missed (issue 30).
   */
  access?: () => string;
  /** Called for every event after the counters took it (toasts, notifications). */
  onEvent?: (e: LiveEvent) => void;
  /** The gateway refused the token (expired or revoked): the session has ended. */
  onRefused?: (message: string) => void;
}

/** After this long without a connection the top bar says "offline since hh:mm". */
export const OFFLINE_AFTER_MS = 10_000;
/** Pauses before trying again after the gateway refused the tab for now (429, 502): 1 s doubling to 30 s. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

/** The pause before retry `n` (0, 1, …): doubling, capped, with up to a second of jitter so tabs spread out. */
export function retryDelay(n: number, random: number = Math.random()): number {
  return Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** n) + Math.round(random * 1000);
}

/**
 * A connection counts as working again, and the pause starts from 1 s anew, once it has lasted this
 * long: a gateway that accepts the tab and closes it soon after (its upstream to the api gave up)
 * must not have every tab reconnect every second.
 */
export const STABLE_AFTER_MS = 30_000;

/** The growing pause between the tab's own retries (refused handshakes, closes by the gateway). */
export class RetryPauses {
  private tries = 0;
  private connectedAt: number | null = null;

  connected(now: number = Date.now()): void {
    this.connectedAt = now;
  }

  /** The pause before the next try: from 1 s again only after a connection that held STABLE_AFTER_MS. */
  next(now: number = Date.now(), random: number = Math.random()): number {
    if (this.connectedAt !== null && now - this.connectedAt >= STABLE_AFTER_MS) this.tries = 0;
    this.connectedAt = null;
    return retryDelay(this.tries++, random);
  }
}

/**
 * The pause a busy gateway asks for (`data.retryAfter`, seconds, with a 503: many tabs are coming
 * back at once), with up to a second of jitter; 0 when it names none.
 */
export function askedPause(err: Error, random: number = Math.random()): number {
  const seconds = (err as Error & { data?: { retryAfter?: unknown } }).data?.retryAfter;
  return typeof seconds === 'number' && seconds > 0 ? seconds * 1000 + Math.round(random * 1000) : 0;
}

/** The handshake refusal's HTTP-like code (`connect_error` `data.code`, DESIGN §3), if any. */
function refusalCode(err: Error): number | undefined {
  const code = (err as Error & { data?: { code?: unknown } }).data?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * Connects this tab to the gateway (same origin, /socket.io, auth { token }) and subscribes to
 * the topics the person may see; keeps the connection state of the top bar. socket.io retries a
 * lost transport by itself; a refused handshake it does not, so a refusal "for now" (too many
 * tabs or connections, 429; the api unreachable, 502; the gateway busy, 503 with the pause it asks
 * for) is retried here after a growing pause,
 * while a refused token (401) ends the session. Returns a function that disconnects.
 */
export function connectLive({ token, perms, language, access, onEvent, onRefused }: LiveOptions): () => void {
  const socket: LiveSocket = io({
    path: '/socket.io',
    // A function: socket.io reads it at every (re)connect, so the digest is the profile's as it is then.
    auth: (send) => send({ token, lang: language, ...(access && { access: access() }) }),
    transports: ['websocket', 'polling'],
    // socket.io's 20 s per attempt is kept: a minute (tried for tabs waiting in a busy gateway's
    // listen queue, README issue 34 part 9) kept a tab "offline" for up to a minute after its
    // gateway was back when an attempt had been swallowed (tests/e2e/connection-state.test.ts).
    reconnectionDelay: firstReconnectPause(),
    reconnectionDelayMax: RECONNECT_MAX_MS,
  });
  // Each loss draws its own first pause: the manager's 'close' comes just before it schedules the
  // first attempt (socket.io-client's Manager.onclose), whose pause starts from this minimum.
  socket.io.on('close', () => socket.io.reconnectionDelay(firstReconnectPause()));
  const topics: Topic[] = allowedTopics(new Set(perms));
  const pauses = new RetryPauses();
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  // A first connection that never comes (a proxy swallowing the handshake) is "offline" too,
  // since the moment it was tried, not "connecting" for ever.
  const startedAt = Date.now();
  let offlineTimer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    if (!socket.connected) connectionLost('offline', startedAt);
  }, OFFLINE_AFTER_MS);

  /** Lost: "reconnecting" at once, "offline" when it lasts (not while merely waiting our turn). */
  const lost = (waitingTurn: boolean) => {
    connectionLost(waitingTurn ? 'reconnecting' : liveState.status === 'offline' ? 'offline' : 'reconnecting');
    if (waitingTurn) {
      clearTimeout(offlineTimer);
      offlineTimer = undefined;
    } else {
      offlineTimer ??= setTimeout(() => {
        if (!socket.connected) connectionLost('offline');
      }, OFFLINE_AFTER_MS);
    }
  };
  const retryLater = (waitingTurn: boolean, atLeastMs = 0) => {
    lost(waitingTurn);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => socket.connect(), Math.max(atLeastMs, pauses.next()));
  };

  socket.on('connect', () => {
    pauses.connected();
    clearTimeout(offlineTimer);
    offlineTimer = undefined;
    connectionLive();
    socket.emit('subscribe', topics, () => undefined);
  });
  socket.on('disconnect', (reason) => {
    if (reason === 'io client disconnect') return;
    // The gateway closed the tab on purpose (when the session ends, and the session event says
    // why; or when its upstream to the api gave up, so that the counters do not sit there looking
    // live); socket.io does not reconnect by itself then.
    if (reason === 'io server disconnect') retryLater(false);
    else lost(false);
  });
  socket.on('connect_error', (err) => {
    // A transport failure: socket.io retries on its own.
    if (socket.active) return lost(false);
    const code = refusalCode(err);
    if (code === 401) {
      connectionLost('offline');
      return onRefused?.(err.message);
    }
    // 429 and 503 (the gateway busy, naming its pause): the tab waits its turn, it is not offline.
    retryLater(code === 429 || code === 503, askedPause(err));
  });
  socket.on('snapshot', (s) => receiveSnapshot(s));
  const handle = (e: LiveEvent) => {
    receiveEvent(e);
    onEvent?.(e);
    emitLiveEvent(e);
  };
  for (const topic of TOPICS) socket.on(topic, handle);

  return () => {
    clearTimeout(retryTimer);
    clearTimeout(offlineTimer);
    socket.removeAllListeners();
    socket.disconnect();
    connectionClosed();
  };
}
