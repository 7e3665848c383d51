import type { UpstreamMessage } from '@pm/shared';

/** A person id as the api stores it; the bus compares ids as strings. */
export type PersonId = number | string;

/**
 * What travels between api instances. A push goes to every open connection of each person;
 * a revocation closes every connection opened with that token (identified by its hash, so a
 * raw token never leaves the process); an access change drops cached verified tokens.
 */
export type BusEnvelope =
  | {
      kind: 'push';
      personIds: string[];
      message: UpstreamMessage;
      /** Journaled pushes: the sequence number of each of personIds (same order). */
      seqs?: number[];
    }
  | { kind: 'revoke'; tokenHash: string }
  /** Whose verified tokens every instance forgets (TokenService.invalidateAccess; null = everyone's). */
  | { kind: 'access'; accountIds: number[] | null }
  /**
   * A write to a table kept answers read was committed by the instance `origin`: every other
   * instance drops its kept answers by id (modules/work-orders/kept-by-id.ts).
   */
  | { kind: 'kept'; origin: string };

/**
 * Carries envelopes to every api instance, this one included, exactly once each.
 * The in-process bus serves one instance; the PostgreSQL bus fans out through LISTEN/NOTIFY.
 */
export interface EventBus {
  publish(envelope: BusEnvelope): Promise<void>;
  /** Registers the one receiver of this instance (the connection registry). */
  onEnvelope(handler: (envelope: BusEnvelope) => void): void;
  close(): Promise<void>;
}

/** The bus of a single api process: delivery is a direct call. */
export function createLocalBus(): EventBus {
  let handler: ((envelope: BusEnvelope) => void) | undefined;
  return {
    async publish(envelope) {
      handler?.(envelope);
    },
    onEnvelope(h) {
      handler = h;
    },
    async close() {
      handler = undefined;
    },
  };
}
