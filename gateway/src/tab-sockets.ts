import { allowedTopics, TOPICS, type SubscribeAck, type Topic } from '@pm/shared';
import { ApiUnavailableError } from './api-client';
import type { GatewayServer, TabSocket } from './gateway-io';
import type { IdentityCache } from './identity-cache';
import { pickLanguage, translate } from './locale-messages';
import type { Logger } from './logger';
import type { PersonHubs } from './person-hubs';
import { rooms } from './tab-rooms';

/** An error socket.io sends to the tab as `connect_error`; `data.code` mirrors the HTTP status. */
class HandshakeError extends Error {
  constructor(
    message: string,
    readonly data: { code: number },
  ) {
    super(message);
  }
}

function isTopic(value: unknown): value is Topic {
  return typeof value === 'string' && (TOPICS as readonly string[]).includes(value);
}

/**
 * The socket.io protocol of DESIGN §3: handshake `auth: { token }`, 'subscribe' and
 * 'unsubscribe' answered `{ topics, refused }`, 'snapshot' at once, events under topic names.
 */
export function attachTabSockets(
  io: GatewayServer,
  deps: { hubs: PersonHubs; identities: IdentityCache; logger: Logger },
): void {
  const { hubs, identities, logger } = deps;

  io.use(async (socket, next) => {
    const lang = pickLanguage(
      socket.handshake.auth?.lang ?? socket.handshake.headers.lang,
      socket.handshake.headers['accept-language'],
    );
    const raw: unknown = socket.handshake.auth?.token;
    const token = typeof raw === 'string' ? raw.replace(/^Bearer\s+/i, '').trim() : '';
    if (!token) return next(new HandshakeError(translate(lang, 'errors.unauthorized'), { code: 401 }));
    try {
      const identity = await identities.get(token);
      if (!identity) return next(new HandshakeError(translate(lang, 'errors.tokenInvalid'), { code: 401 }));
      socket.data = { personId: identity.personId, token, perms: [...identity.perms], lang, topics: [] };
      next();
    } catch (err) {
      if (!(err instanceof ApiUnavailableError)) logger.error({ err }, 'handshake failed');
      next(new HandshakeError(translate(lang, 'errors.apiUnavailable'), { code: 502 }));
    }
  });

  io.on('connection', (socket: TabSocket) => {
    const { personId, token } = socket.data;
    const hub = hubs.get(personId);
    if (!socket.recovered) {
      // Session news (logout, expiry) reaches every tab, subscribed or not.
      void socket.join([rooms.person(personId), rooms.token(token), rooms.topic(personId, 'session')]);
      socket.data.topics = ['session'];
    }
    hub.addTab(socket.id, token);
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

  io.on('reconcile', (personId) => void hubs.find(personId)?.reconcile());
}
