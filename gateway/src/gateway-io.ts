import type { Server, Socket } from 'socket.io';
import type { BroadcastOperator } from 'socket.io';
import type {
  AccessEvent,
  ClientToServerEvents,
  LiveEvent,
  ServerToClientEvents,
  SessionEvent,
  Topic,
} from '@pm/shared';
import type { Language } from './locale-messages';

/** Messages between gateway instances (through the Redis adapter). */
export interface InterServerEvents {
  /** "This token was revoked": forget its identity (sha256 hex of the token, never the token). */
  forgetToken: (tokenHash: string) => void;
  /** A person's access changed (the upstream holder got the api's push): each instance updates its own tabs. */
  accessChanged: (personId: number, event: AccessEvent) => void;
  /**
   * "I have this many of these persons' tabs and not their upstream" ([personId, tabs, …]): the
   * instance holding an upstream with fewer of the person's tabs hands it over (person-hub.ts).
   */
  leaseClaims: (pairs: number[]) => void;
  /** These persons' upstreams were just handed over: an instance with their tabs takes them at once. */
  leaseFreed: (personIds: number[]) => void;
}

/** What a tab's socket carries; plain data so connection-state recovery can store it in Redis. */
export interface TabData {
  personId: number;
  /** The account the token belongs to (a revoked account's tabs are signed out, issue 30). */
  accId?: number;
  token: string;
  perms: string[];
  lang: Language;
  topics: Topic[];
  /** When the token expires (epoch ms): the tab is told on the session topic and dropped then. */
  expiresAt: number;
  /** A wall screen's session, renewed while in use: checked with the api before `expiresAt`. */
  renews?: boolean;
}

export type GatewayServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, TabData>;
export type TabSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, TabData>;
type Target = BroadcastOperator<ServerToClientEvents, TabData>;

/** Sends an event under its topic's name (the union member of that topic, typed in shared/). */
export function emitLive(target: Target, e: LiveEvent): void {
  // `e.topic` names the member `e` is, which TypeScript cannot correlate on its own.
  (target.emit as (topic: Topic, event: LiveEvent) => boolean)(e.topic, e);
}

/**
 * Tells one tab its session ended, then drops it: the event is on the wire before the disconnect.
 * With connection-state recovery `socket.emit` goes through the adapter to be stored, and with
 * Redis that is a round trip the disconnect right after it would overtake (the tab heard nothing
 * and showed "connection lost" instead of why it was signed out, issue 30). A tab being dropped
 * recovers nothing, so the event goes straight to this instance's socket.
 */
export function endTabSession(socket: TabSocket, event: SessionEvent): void {
  socket.nsp.local.to(socket.id).emit('session', event);
  socket.disconnect();
}
