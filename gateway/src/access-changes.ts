import { allowedTopics, ChannelType, type AccessEvent, type SessionEvent, type Topic } from '@pm/shared';
import { endTabSession, type GatewayServer, type TabSocket } from './gateway-io';
import type { IdentityCache } from './identity-cache';
import type { Logger } from './logger';
import { rooms } from './tab-rooms';

const signedOut: SessionEvent = {
  topic: 'session',
  kind: 'forcedLogout',
  channelType: 3001,
  payload: { reason: 'forcedLogout' },
};

/** This instance's tabs of a person (the local rooms: with Redis, other instances handle theirs). */
function localTabs(io: GatewayServer, personId: number): TabSocket[] {
  const nsp = io.of('/');
  const ids = nsp.adapter.rooms.get(rooms.person(personId));
  const tabs: TabSocket[] = [];
  for (const id of ids ?? []) {
    const socket = nsp.sockets.get(id);
    if (socket) tabs.push(socket);
  }
  return tabs;
}

/**
 * A person's access changed (the api's `access` push, issue 30): this instance's tabs of the
 * person follow it at once, without signing in again.
 * - `revoked` (account deleted or disabled): the tabs signed in with that account are told on the
 *   session topic and dropped, their tokens forgotten;
 * - `permissions`: each tab of the accounts named takes the permissions the push carries (a tab
 *   of another account asks the api anew, one call per token), leaves the topics it may no longer
 *   receive and is told on the `access` topic which ones stopped (the client then reloads its
 *   menu). A token the api no longer knows ends its tabs as above.
 */
export async function applyAccessChange(
  io: GatewayServer,
  identities: IdentityCache,
  logger: Logger,
  personId: number,
  event: AccessEvent,
): Promise<void> {
  // Answers about the person asked until now may hold the old permissions: none is given again,
  // and a tab whose handshake read one before this moment is checked once it joined (recheckTab).
  identities.accessChanged(personId);
  const tabs = localTabs(io, personId);
  if (tabs.length === 0) return;
  if (event.kind === 'revoked') {
    for (const socket of tabs) {
      if (event.payload.accId !== undefined && socket.data.accId !== event.payload.accId) continue;
      endTab(socket, identities);
    }
    return;
  }
  // The push names the accounts and the permissions they hold now: their tabs take them as they
  // are; a tab of the person on another account (or an older api) asks the api, once per token.
  const { accIds, perms: pushed, change } = event.payload;
  const told: AccessEvent = { ...event, payload: { change } };
  const byToken = new Map<string, TabSocket[]>();
  for (const socket of tabs) {
    if (pushed && accIds && socket.data.accId !== undefined && accIds.includes(socket.data.accId)) {
      identities.forget(socket.data.token);
      applyPermissions(socket, personId, pushed, told);
      continue;
    }
    const list = byToken.get(socket.data.token);
    if (list) list.push(socket);
    else byToken.set(socket.data.token, [socket]);
  }
  await Promise.all(
    [...byToken].map(async ([token, sockets]) => {
      let perms: string[] | null | undefined;
      try {
        const identity = await identities.get(token, 0);
        perms = identity && identity.expiresAt > Date.now() ? [...identity.perms] : null;
      } catch (err) {
        // The api is unreachable: the tabs keep what they had (every call is still checked there),
        // and are told anyway, so they reload their menu when the api answers them.
        logger.warn({ personId, err: (err as Error).message }, 'access change: permissions could not be read');
      }
      for (const socket of sockets) {
        if (!socket.connected) continue;
        if (perms === null) endTab(socket, identities);
        else applyPermissions(socket, personId, perms, told);
      }
    }),
  );
}

/** What a tab is told when its permissions changed (the gateway adds the topics it stopped). */
const permissionsChanged: AccessEvent = {
  topic: 'access',
  kind: 'permissions',
  channelType: ChannelType.accessChanged,
  payload: { change: 'permissions' },
};

/**
 * A tab that joined while an access change was on its way (issue 30): its handshake read the
 * person's permissions before the change reached this instance, and the change was applied to
 * the tabs before this one joined its rooms. It reads them anew and is told, as if it had been
 * there (the console then reads its profile again); a token the api no longer knows ends the tab.
 */
export async function recheckTab(socket: TabSocket, identities: IdentityCache, logger: Logger): Promise<void> {
  const { personId, token } = socket.data;
  let perms: string[] | undefined;
  try {
    const identity = await identities.get(token, 0);
    if (!socket.connected) return;
    if (!identity || identity.personId !== personId || identity.expiresAt <= Date.now())
      return endTab(socket, identities);
    perms = [...identity.perms];
  } catch (err) {
    // The api is unreachable: the tab keeps what it has and is told, so it reads its profile when it can.
    logger.warn({ personId, err: (err as Error).message }, 'access recheck: permissions could not be read');
    if (!socket.connected) return;
  }
  applyPermissions(socket, personId, perms, permissionsChanged);
}

/**
 * The tab's profile (its access digest, sent with the handshake) differs from the permissions
 * the gateway checks: it is told to read it again, as after a change.
 */
export function tellAccessChanged(socket: TabSocket): void {
  socket.emit('access', { ...permissionsChanged, payload: { ...permissionsChanged.payload, stopped: [] } });
}

/**
 * The tab holds these permissions from now on: it leaves the topics they no longer allow and is
 * told on the `access` topic which ones stopped. Undefined `perms`: unknown, nothing stops.
 */
function applyPermissions(socket: TabSocket, personId: number, perms: string[] | undefined, told: AccessEvent): void {
  const stopped: Topic[] = [];
  if (perms !== undefined) {
    const allowed = new Set(allowedTopics(new Set(perms)));
    for (const t of socket.data.topics) if (!allowed.has(t)) stopped.push(t);
    for (const t of stopped) void socket.leave(rooms.topic(personId, t));
    socket.data.perms = perms;
    socket.data.topics = socket.data.topics.filter((t) => allowed.has(t));
  }
  socket.emit('access', { ...told, payload: { ...told.payload, stopped } });
}

function endTab(socket: TabSocket, identities: IdentityCache): void {
  identities.forget(socket.data.token);
  endTabSession(socket, signedOut);
}
