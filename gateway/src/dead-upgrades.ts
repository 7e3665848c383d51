// Upgrade requests whose client is already gone are dropped before any handshake work (issue 34,
// README "Part 18").
//
// When thousands of tabs come back at once, a connection can wait in the gateway's listen queue
// longer than its client's connect timeout (socket.io's 20 s): the client closes it and tries again,
// but the kernel still holds the connection, its upgrade request and the client's FIN. At 16,000
// tabs (README "Part 13", run 5) every connection the gateway accepted was such a dead one: it
// answered 101, opened an engine.io session, parsed whatever the client had sent along (a
// socket.io CONNECT would start an identity lookup at the api), and only its next write failed.
//
// Node's HTTP server hands over the upgrade as soon as the request is parsed; the FIN that came
// with it is read one turn of the event loop later. So each upgrade waits for that turn, reading
// the socket meanwhile (anything the client sent after the request is kept and put back), and goes
// on to engine.io only if the client has not ended or reset its connection by then.
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Socket as NetSocket } from 'node:net';
import type { Duplex } from 'node:stream';

type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Puts a check in front of every `upgrade` listener `server` has now (engine.io's, attached by
 * socket.io): an upgrade whose client has already closed its connection is destroyed unanswered
 * and counted through `dropped`; any other goes on to the listeners unchanged, one event-loop
 * turn later. Call it after socket.io is attached and before the server listens.
 */
export function dropDeadUpgrades(server: HttpServer, dropped: () => void): void {
  const listeners = server.listeners('upgrade') as UpgradeListener[];
  server.removeAllListeners('upgrade');
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    whenClientStillThere(
      socket,
      () => {
        // The 101 and engine.io's open packet, written in this same turn, leave in one write
        // instead of two (README "Part 21": a write is a system call, and every tab makes these).
        const raw = socket as Partial<Pick<NetSocket, 'cork' | 'uncork'>>;
        raw.cork?.();
        try {
          listeners.forEach((listener) => listener.call(server, req, socket, head));
        } finally {
          setImmediate(() => raw.uncork?.());
        }
      },
      () => {
        dropped();
        socket.destroy();
      },
    );
  });
}

/**
 * Calls `there` once a FIN or reset already on its way has been read and none was; `gone` if the
 * client ended or reset the connection. Bytes read meanwhile are put back, and the socket left
 * paused, as Node's HTTP server leaves an upgraded socket (its new owner starts reading).
 */
function whenClientStillThere(socket: Duplex, there: () => void, gone: () => void): void {
  if (socket.destroyed || socket.readableEnded) return gone();
  const early: Buffer[] = [];
  let ended = false;
  const keep = (chunk: Buffer) => early.push(chunk);
  const onEnd = () => (ended = true);
  // A reset (ECONNRESET) during the wait must not become an uncaught error: it destroys the socket.
  const onError = () => undefined;
  socket.on('data', keep);
  socket.once('end', onEnd);
  socket.on('error', onError);
  // The read that sees a FIN already in the kernel's buffer happens in the next poll phase; the
  // second setImmediate runs right after it.
  setImmediate(() =>
    setImmediate(() => {
      socket.removeListener('data', keep);
      socket.removeListener('end', onEnd);
      socket.removeListener('error', onError);
      if (ended || socket.destroyed) return gone();
      socket.pause();
      // Neither flowing nor paused: the next 'data' listener (ws's) starts the reading again.
      (socket as { readableFlowing: boolean | null }).readableFlowing = null;
      if (early.length > 0) socket.unshift(Buffer.concat(early));
      there();
    }),
  );
}
