import type { Socket as NetSocket } from 'node:net';
import type { GatewayServer } from './gateway-io';

/** What this reaches into of engine.io's transport and of the ws socket under it. */
interface Transport {
  name: string;
  send(packets: unknown[]): void;
  socket?: { _socket?: NetSocket | null };
}
interface EngineConnection {
  transport: Transport;
  on(event: 'upgrade', listener: (transport: Transport) => void): void;
}

/** Sockets corked until the end of this turn of the event loop. */
const corked = new WeakSet<NetSocket>();

/**
 * At most one socket write per tab per turn of the event loop (issue 31). Every frame is its own
 * `writev` otherwise, which was the gateway's largest cost under load (45 % of its busy time in
 * the 500-member chat bench): a tab's socket is corked at its first frame of a turn and uncorked
 * once the turn's I/O is done (`setImmediate`), so the frames queued meanwhile (a busy turn
 * handles hundreds of upstream pushes) leave in one write. Frames stay separate WebSocket
 * frames, in order: the socket.io protocol is unchanged, only the system calls are merged. The
 * busier the gateway, the longer a turn and the more a write carries.
 */
export function batchTabWrites(io: GatewayServer): void {
  io.engine.on('connection', (conn: EngineConnection) => {
    batchWrites(conn.transport);
    conn.on('upgrade', batchWrites);
  });
}

function batchWrites(transport: Transport): void {
  if (transport.name !== 'websocket') return;
  const raw = transport.socket?._socket;
  if (!raw || typeof raw.cork !== 'function') return;
  const send = transport.send.bind(transport);
  transport.send = (packets) => {
    if (!corked.has(raw)) {
      corked.add(raw);
      raw.cork();
      setImmediate(() => {
        corked.delete(raw);
        raw.uncork();
      });
    }
    send(packets);
  };
}
