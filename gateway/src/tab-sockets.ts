import type { Namespace, ServerOptions } from 'socket.io';
import type { Adapter } from 'socket.io-adapter';
import { accessDigest, allowedTopics, TOPICS, type SessionEvent, type SubscribeAck, type Topic } from '@pm/shared';
import { recheckTab, tellAccessChanged } from './access-changes';
import { ApiUnavailableError } from './api-client';
import { ApiBusyError } from './api-gate';
import { endTabSession, type GatewayServer, type TabData, type TabSocket } from './gateway-io';
import type { IdentityCache } from './identity-cache';
import { pickLanguage, translate } from './locale-messages';
import type { Logger } from './logger';
import type { PersonHub } from './person-hub';
import type { PersonHubs } from './person-hubs';
import { rooms } from './tab-rooms';

/** An error socket.io sends to the tab as `connect_error`; `data.code` mirrors the HTTP status. */
class HandshakeError extends Error {
  constructor(
    message: string,
    readonly data: { code: number; retryAfter?: number },
  ) {
    super(message);
  }
}

function isTopic(value: unknown): value is Topic {
  return typeof value === 'string' && (TOPICS as readonly string[]).includes(value);
}

/** setTimeout's longest delay (about 24.8 days); a token living longer is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A handshake trusts an identity the api answered this recently (tabs opening together share it). */
const HANDSHAKE_MAX_AGE_MS = 2_000;
/** How often the tokens of connected tabs are checked with the api (DEFAULT; GatewayOptions.tokenCheckMs). */
export const TOKEN_CHECK_MS = 60_000;

const sessionEnded = (kind: 'expired' | 'forcedLogout'): SessionEvent => ({
  topic: 'session',
  kind,
  channelType: 3001,
  payload: { reason: kind },
});

/**
 * What a handshake found out about a tab's access, for its connection (issue 30): the access
 * generation its identity was asked at, and whether the profile the tab shows (its digest)
 * differs from the permissions the gateway checks.
 */
interface HandshakeAccess {
  askedAt: number;
  profileDiffers: boolean;
}
const handshakeAccess = new WeakMap<TabSocket, HandshakeAccess>();

/** A renewing session is asked about again after this share of the time it has left (the api renews past half). */
const RENEW_CHECK_SHARE = 0.6;
/** After the api could not be asked, a renewing session's check is tried again this soon. */
const RENEW_RETRY_MS = 5_000;

/**
 * Drops the tab when its own token expires, whatever token the person's upstream uses: the
 * session topic's expiry event first, then the disconnect (the console then asks to sign in).
 * A wall screen's session (`renews`) is asked about before it expires instead: the api renews it
 * then (while the screen is open it is in use), and the tab follows the new expiry; a session the
 * api refuses (revoked by an administrator) ends at once.
 */
function bindToTokenExpiry(socket: TabSocket, identities: IdentityCache, hub: PersonHub): void {
  let timer: NodeJS.Timeout;
  let gone = false;
  const end = (kind: 'expired' | 'forcedLogout') => endTabSession(socket, sessionEnded(kind));
  const renew = () => {
    identities.get(socket.data.token, 0).then(
      (identity) => {
        if (gone) return;
        if (!identity || identity.personId !== socket.data.personId || identity.expiresAt <= Date.now())
          return end(identity === null && socket.data.expiresAt > Date.now() ? 'forcedLogout' : 'expired');
        socket.data.expiresAt = identity.expiresAt;
        socket.data.renews = identity.renews;
        hub.tabRenewed(socket.id, identity.expiresAt);
        arm();
      },
      () => {
        // The api is unavailable for a moment: ask again soon, but never past the expiry.
        if (gone) return;
        if (socket.data.expiresAt <= Date.now()) return end('expired');
        timer = setTimeout(renew, Math.min(RENEW_RETRY_MS, socket.data.expiresAt - Date.now()));
      },
    );
  };
  const arm = () => {
    const left = socket.data.expiresAt - Date.now();
    if (socket.data.renews && left > 0) {
      timer = setTimeout(renew, Math.min(MAX_TIMER_MS, Math.floor(left * RENEW_CHECK_SHARE)));
      return;
    }
    timer = setTimeout(
      () => {
        if (socket.data.expiresAt > Date.now()) return arm();
        end('expired');
      },
      Math.min(MAX_TIMER_MS, Math.max(0, left)),
    );
  };
  arm();
  socket.on('disconnect', () => {
    gone = true;
    clearTimeout(timer);
  });
}

/**
 * Connection-state recovery only for a session whose own token is still valid (issue 14). The
 * check sits where socket.io restores a session because it writes the session's missed events to
 * the tab right then, before any middleware runs; a session refused here connects afresh, through
 * the handshake check, which refuses the same token.
 */
export function recoverOnlyValidSessions(
  adapter: ServerOptions['adapter'],
  identities: IdentityCache,
): ServerOptions['adapter'] {
  // socket.io calls `new` on it: a class, or a function returning the adapter (the Redis one).
  const Base = adapter as unknown as new (nsp: Namespace) => Adapter;
  return function guarded(nsp: Namespace) {
    const instance = new Base(nsp);
    const restore = instance.restoreSession.bind(instance);
    instance.restoreSession = async (pid, offset) => {
      const session = await restore(pid, offset);
      if (!session) return session;
      const data = session.data as Partial<TabData> | undefined;
      const identity = typeof data?.token === 'string' ? await identities.get(data.token, 0).catch(() => null) : null;
      const valid = identity !== null && identity.personId === data?.personId && identity.expiresAt > Date.now();
      // null: "no session to recover" to socket.io, which then connects the tab afresh.
      return valid ? session : (null as unknown as typeof session);
    };
    return instance;
  } as unknown as ServerOptions['adapter'];
}

/**
 * The socket.io protocol of DESIGN §3: handshake `auth: { token }`, 'subscribe' and
 * 'unsubscribe' answered `{ topics, refused }`, 'snapshot' at once, events under topic names.
 */
export function attachTabSockets(
  io: GatewayServer,
  deps: { hubs: PersonHubs; identities: IdentityCache; logger: Logger; tokenCheckMs?: number },
): { close(): void } {
  const { hubs, identities, logger } = deps;

  // Every handshake, a tab coming back through connection-state recovery included, passes here:
  // a session never outlives its token (issue 14).
  io.use(async (socket, next) => {
    const lang = pickLanguage(
      socket.handshake.auth?.lang ?? socket.handshake.headers.lang,
      socket.handshake.headers['accept-language'],
    );
    const raw: unknown = socket.handshake.auth?.token;
    const token = typeof raw === 'string' ? raw.replace(/^Bearer\s+/i, '').trim() : '';
    if (!token) return next(new HandshakeError(translate(lang, 'errors.unauthorized'), { code: 401 }));
    try {
      const { identity, askedAt } = await identities.lookup(token, HANDSHAKE_MAX_AGE_MS);
      const refused = () => next(new HandshakeError(translate(lang, 'errors.tokenInvalid'), { code: 401 }));
      if (!identity || identity.expiresAt <= Date.now()) return refused();
      const perms = [...identity.perms];
      let topics: Topic[] = [];
      if (socket.recovered) {
        // The recovered session keeps its rooms; it must still be this person's, on this token.
        if (socket.data.personId !== identity.personId) return refused();
        if (socket.data.token !== token) {
          void socket.leave(rooms.token(socket.data.token));
          void socket.join(rooms.token(token));
        }
        const allowed = new Set(allowedTopics(new Set(perms)));
        topics = socket.data.topics.filter((t) => allowed.has(t));
        for (const t of socket.data.topics) if (!allowed.has(t)) void socket.leave(rooms.topic(identity.personId, t));
      }
      socket.data = {
        personId: identity.personId,
        accId: identity.accId,
        token,
        perms,
        lang,
        topics,
        expiresAt: identity.expiresAt,
        renews: identity.renews,
      };
      const shown: unknown = socket.handshake.auth?.access;
      handshakeAccess.set(socket, {
        askedAt,
        profileDiffers: typeof shown === 'string' && shown !== accessDigest(identity.roleValue, perms),
      });
      next();
    } catch (err) {
      // Too many handshakes wait for the api already: come back later (the console waits at least
      // `retryAfter` seconds), rather than a failure.
      if (err instanceof ApiBusyError)
        return next(
          new HandshakeError(translate(lang, 'errors.gatewayBusy'), { code: 503, retryAfter: err.retryAfterSeconds }),
        );
      if (!(err instanceof ApiUnavailableError)) logger.error({ err }, 'handshake failed');
      else logger.info({ err: err.message }, 'handshake refused: no api identified the token');
      next(new HandshakeError(translate(lang, 'errors.apiUnavailable'), { code: 502 }));
    }
  });

  io.on('connection', (socket: TabSocket) => {
    const { personId, token } = socket.data;
    const hub = hubs.get(personId);
    if (!socket.recovered) {
      // Session news (logout, expiry) and access changes reach every tab, subscribed or not.
      void socket.join([
        rooms.person(personId),
        rooms.token(token),
        rooms.topic(personId, 'session'),
        rooms.topic(personId, 'access'),
      ]);
      socket.data.topics = ['session', 'access'];
    }
    bindToTokenExpiry(socket, identities, hub);
    hub.addTab(socket.id, token, socket.data.expiresAt);
    // Now in the person's rooms, the tab hears every later access change. One that reached this
    // instance after its identity was asked is checked anew; a tab showing a profile other than
    // these permissions (read before a change) is told to read it again.
    const access = handshakeAccess.get(socket);
    handshakeAccess.delete(socket);
    if (access && identities.changedSince(personId, access.askedAt)) void recheckTab(socket, identities, logger);
    else if (access?.profileDiffers) tellAccessChanged(socket);
    hub.snapshotForNewTab().then(
      (s) => s && socket.connected && socket.emit('snapshot', s),
      (err: Error) => logger.warn({ personId, err: err.message }, 'snapshot for a new tab failed'),
    );

    socket.on('subscribe', (topics, ack) => {
      const allowed = new Set(allowedTopics(new Set(socket.data.perms)));
      const result: SubscribeAck = { topics: [], refused: [] };
      for (const t of Array.isArray(topics) ? topics : []) {
        if (isTopic(t) && allowed.has(t)) {
          if (!result.topics.includes(t)) result.topics.push(t);
        } else if (isTopic(t) && !result.refused.includes(t)) {
          result.refused.push(t);
        }
      }
      void socket.join(result.topics.map((t) => rooms.topic(personId, t)));
      socket.data.topics = [...new Set([...socket.data.topics, ...result.topics])];
      if (typeof ack === 'function') ack(result);
    });

    socket.on('unsubscribe', (topics, ack) => {
      const result: SubscribeAck = { topics: [], refused: [] };
      for (const t of Array.isArray(topics) ? topics : []) {
        if (!isTopic(t) || result.topics.includes(t)) continue;
        result.topics.push(t);
        void socket.leave(rooms.topic(personId, t));
      }
      socket.data.topics = socket.data.topics.filter((t) => !result.topics.includes(t));
      if (typeof ack === 'function') ack(result);
    });

    socket.on('disconnect', () => hubs.find(personId)?.removeTab(socket.id));
  });

  io.on('forgetToken', (hash) => identities.forgetHash(hash));
  io.on('accessChanged', (personId, event) => void hubs.applyAccessChange(personId, event));
  io.on('leaseClaims', (pairs) => hubs.takeClaims(pairs));
  io.on('leaseFreed', (personIds) => hubs.takeFreed(personIds));

  // A token revoked at the api without passing through this gateway (a password change revokes the
  // account's other tokens) drops its tabs here at the next check.
  const check = setInterval(() => void dropRevokedTabs(io, identities), deps.tokenCheckMs ?? TOKEN_CHECK_MS);
  check.unref();
  return { close: () => clearInterval(check) };
}

/** Asks the api about every token of this instance's tabs; the tabs of a refused token are told and dropped. */
async function dropRevokedTabs(io: GatewayServer, identities: IdentityCache): Promise<void> {
  const byToken = new Map<string, TabSocket[]>();
  for (const socket of io.of('/').sockets.values()) {
    const list = byToken.get(socket.data.token);
    if (list) list.push(socket);
    else byToken.set(socket.data.token, [socket]);
  }
  for (const [token, sockets] of byToken) {
    const identity = await identities.get(token, 0).catch(() => undefined);
    // undefined: the api is unavailable, ask again next time. Expiry has its own timer.
    if (identity !== null) continue;
    for (const socket of sockets) endTabSession(socket, sessionEnded('forcedLogout'));
  }
}
