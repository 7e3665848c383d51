import { hash } from 'node:crypto';
import type { Topic } from '@pm/shared';

/** socket.io room names. Tokens never appear in a room name (rooms travel through Redis). */
export const rooms = {
  /** Every tab of a person: snapshots. */
  person: (personId: number) => `person:${personId}`,
  /** The tabs of a person subscribed to one topic. */
  topic: (personId: number, topic: Topic) => `person:${personId}:${topic}`,
  /** The tabs signed in with one token: told and dropped when it is revoked. */
  token: (token: string) => `token:${hash('sha256', token, 'hex').slice(0, 24)}`,
};
