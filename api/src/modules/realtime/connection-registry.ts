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
  /**
   * The gateway instance the connection comes from (`?gw=ID`, issue 31): a push to several persons
   * whose upstreams one gateway holds is sent to it once, with their numbers (a fan-out frame).
   */
  gateway?: string;
}

/** Fewest recipients on one gateway for a fan-out frame (below it each gets its own frame, as before). */
export const FAN_OUT_MIN = 2;

/** `{"channelType":…}` + the fan-out list `[personId, pushSeq, …]` (docs/internal-contract.md). */
export function withFanOut(text: string, pairs: (string | number)[]): string {
  return `${text.slice(0, -1)},"fanout":[${pairs.join(',')}]}`;
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
    // Journaled pushes to several persons: the persons whose one upstream comes from a gateway
    // and can take this push now, in order, go to that gateway in one frame (issue 31).
    if (seqs && personIds.length >= FAN_OUT_MIN) sent += this.fanOut(personIds, text, seqs, done);
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

  /**
   * One frame per gateway for the recipients whose only connection here comes from that gateway
   * and whose stream has sent everything before this push: `{…message, "fanout": [id, seq, …]}`
   * on one of their sockets (the gateway hands each person their numbered copy). Their streams
   * continue after the push; they are added to `done`. Answers the connections reached.
   */
  private fanOut(personIds: PersonId[], text: string, seqs: number[], done: Set<string>): number {
    const byGateway = new Map<string, { carrier: Connection; pairs: (string | number)[]; ids: string[] }>();
    const seen = new Set<string>();
    personIds.forEach((personId, i) => {
      const id = String(personId);
      const set = this.byPerson.get(id);
      if (!set || set.size !== 1 || done.has(id) || seen.has(id)) return;
      seen.add(id);
      const c = set.values().next().value as Connection;
      const seq = seqs[i];
      if (!c.gateway || !c.stream || seq === undefined || c.socket.readyState !== c.socket.OPEN) return;
      // A socket about to be dropped as a slow reader carries nobody else's push (sendTo).
      if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) return;
      if (!c.stream.canHandOver(seq)) return;
      let group = byGateway.get(c.gateway);
      if (!group) byGateway.set(c.gateway, (group = { carrier: c, pairs: [], ids: [] }));
      group.pairs.push(id, seq);
      group.ids.push(id);
    });
    let sent = 0;
    for (const group of byGateway.values()) {
      if (group.ids.length < FAN_OUT_MIN) continue;
      sendTo(group.carrier.socket, withFanOut(text, group.pairs));
      for (let k = 0; k < group.ids.length; k++) {
        const id = group.ids[k];
        done.add(id);
        const c = this.byPerson.get(id)?.values().next().value as Connection;
        c.stream?.sentElsewhere(group.pairs[2 * k + 1] as number);
      }
      sent += group.ids.length;
    }
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
