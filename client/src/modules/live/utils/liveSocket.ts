import { io, type Socket } from 'socket.io-client';
import {
  allowedTopics,
  type ClientToServerEvents,
  type LiveEvent,
  type ServerToClientEvents,
  type Topic,
} from '@pm/shared';
import { liveState, receiveEvent, receiveSnapshot, resetLive } from '../states/liveState';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface LiveOptions {
  token: string;
  perms: readonly string[];
  language: string;
  /** Called for every event after the counters took it (toasts, notifications). */
  onEvent?: (e: LiveEvent) => void;
  /** The gateway refused the token (expired or revoked). */
  onRefused?: (message: string) => void;
}

/**
 * Connects this tab to the gateway (same origin, /socket.io, auth { token }) and subscribes to
 * the topics the person may see. Returns a function that disconnects.
 */
export function connectLive({ token, perms, language, onEvent, onRefused }: LiveOptions): () => void {
  const socket: LiveSocket = io({
    path: '/socket.io',
    auth: { token, lang: language },
    transports: ['websocket', 'polling'],
  });
  const topics: Topic[] = allowedTopics(new Set(perms));

  socket.on('connect', () => {
    liveState.connected = true;
    socket.emit('subscribe', topics, () => undefined);
  });
  socket.on('disconnect', () => {
    liveState.connected = false;
    liveState.synced = false;
  });
  socket.on('connect_error', (err) => {
    // socket.io retries on its own, except when the server refused the handshake.
    if (!socket.active) onRefused?.(err.message);
  });
  socket.on('snapshot', (s) => receiveSnapshot(s));
  const handle = (e: LiveEvent) => {
    receiveEvent(e);
    onEvent?.(e);
  };
  socket.on('alarms', handle);
  socket.on('workorders', handle);
  socket.on('chat', handle);
  socket.on('residents', handle);
  socket.on('announcements', handle);
  socket.on('session', handle);

  return () => {
    socket.removeAllListeners();
    socket.disconnect();
    resetLive();
  };
}
