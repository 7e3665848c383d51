import type { WebSocket } from 'ws';
import type { UpstreamMessage } from '@pm/shared';
import type { PersonId } from './event-bus';
import { withPushSeq, type ResumeStream } from './resume-stream';

/** Close codes of docs/internal-contract.md. */
export const CLOSE_IDLE = 4000;
export const CLOSE_TOKEN_REVOKED = 4001;

/** A slow reader that lets this much pile up is dropped rather than growing memory without bound. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface Connection {
  socket: WebSocket;
  personId: string;
  /** sha256 of the token the connection was opened with. */
  tokenHash: string;
  /** Set when the peer asked to resume (`?after=N`): pushes go through it, in sequence, each once. */
  stream?: ResumeStream;
}

/** Sends a text, dropping a slow reader that let too much pile up. */
export function sendTo(socket: WebSocket, text: string): void {
  if (socket.readyState !== socket.OPEN) return;
  if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
    socket.terminate();
    return;
  }
  socket.send(text);
}

/** The open upstream sockets of this instance, by person. */
export class ConnectionRegistry {
  private readonly byPerson = new Map<string, Set<Connection>>();

  add(connection: Connection): void {
    let set = this.byPerson.get(connection.personId);
    if (!set) this.byPerson.set(connection.personId, (set = new Set()));
    set.add(connection);
  }

  remove(connection: Connection): void {
    const set = this.byPerson.get(connection.personId);
    if (!set) return;
    set.delete(connection);
    if (set.size === 0) this.byPerson.delete(connection.personId);
  }

  /**
   * Sends one message to every open connection of each person (each connection once). With
   * `seqs` (journaled pushes) each person's copy carries its sequence number as `pushSeq`.
   */
  deliver(personIds: PersonId[], message: UpstreamMessage, seqs?: number[]): number {
    const text = JSON.stringify(message);
    let sent = 0;
    const done = new Set<string>();
    personIds.forEach((personId, i) => {
      const id = String(personId);
      if (done.has(id)) return;
      done.add(id);
      const seq = seqs?.[i];
      const stamped = seq === undefined ? text : withPushSeq(text, seq);
      for (const c of this.byPerson.get(id) ?? []) {
        if (c.socket.readyState !== c.socket.OPEN) continue;
        if (c.stream && seq !== undefined) c.stream.offer(seq, stamped);
        else sendTo(c.socket, stamped);
        sent += 1;
      }
    });
    return sent;
  }

  /** Closes the connections opened with a token (revocation or expiry). */
  closeByToken(tokenHash: string, code: number, reason: string): void {
    for (const set of this.byPerson.values()) {
      for (const c of set) if (c.tokenHash === tokenHash) c.socket.close(code, reason);
    }
  }

  count(personId?: PersonId): number {
    if (personId !== undefined) return this.byPerson.get(String(personId))?.size ?? 0;
    let n = 0;
    for (const set of this.byPerson.values()) n += set.size;
    return n;
  }

  /** Drops a person's sockets without a close handshake: the peer sees 1006. */
  terminate(personId: PersonId): void {
    for (const c of this.byPerson.get(String(personId)) ?? []) c.socket.terminate();
  }

  all(): Connection[] {
    return [...this.byPerson.values()].flatMap((s) => [...s]);
  }
}
