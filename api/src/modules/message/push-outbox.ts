import type { UpstreamMessage, UpstreamPush } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import type { PersonId, RealtimeHandle } from '../realtime';
import type { StampedPush } from '../realtime/push-journal';

interface PendingPush {
  personIds: PersonId[];
  message: UpstreamMessage;
}

/** Pushes collected during a transaction, keyed by the transaction object that collects them. */
const outboxes = new WeakMap<object, PendingPush[]>();

/** Anything with Drizzle's `transaction(fn)`. */
export interface Transactional<TX> {
  transaction<T>(work: (tx: TX) => Promise<T>): Promise<T>;
}

/**
 * Where pushes go once the transaction has committed; a no-op sink is fine in scripts. The api's
 * real-time handle also journals them inside the transaction (`record`, then `publishStamped`).
 */
export type PushSink = Pick<RealtimeHandle, 'publish'> & Partial<Pick<RealtimeHandle, 'record' | 'publishStamped'>>;

/**
 * Runs `work` in one transaction and publishes the pushes it queued only after the commit:
 * a rolled-back change never reaches anyone's screen. The pushes are numbered and journaled as the
 * transaction's last step, so a committed change keeps its pushes even when the api dies before
 * publishing them (an upstream that resumes is sent them). Use it for every change that notifies.
 */
export async function withPushes<TX extends object, T>(
  db: Transactional<TX>,
  realtime: PushSink | undefined,
  work: (tx: TX) => Promise<T>,
  onPushError?: (err: unknown) => void,
): Promise<T> {
  let pending: PendingPush[] = [];
  let stamped: StampedPush[] | null = null;
  const result = await db.transaction(async (tx) => {
    pending = [];
    stamped = null;
    outboxes.set(tx, pending);
    try {
      const value = await work(tx);
      if (realtime?.record && pending.length > 0) stamped = await realtime.record(tx as unknown as DbOrTx, pending);
      return value;
    } finally {
      outboxes.delete(tx);
    }
  });
  if (realtime) {
    // The change is committed; a failing push must not turn it into an error for the caller.
    const numbered: StampedPush[] | null = stamped;
    if (numbered && realtime.publishStamped) {
      await realtime.publishStamped(numbered).catch((err: unknown) => onPushError?.(err));
    } else {
      await Promise.all(
        pending.map((p) => realtime.publish(p.personIds, p.message).catch((err: unknown) => onPushError?.(err))),
      );
    }
  }
  return result;
}

/**
 * Queues a push inside a transaction opened by {@link withPushes}. The push is typed by its topic
 * (shared/src/topics): its event number, message type and payload fields.
 */
export function queuePush(tx: object, personIds: PersonId[], message: UpstreamPush): void {
  const pending = outboxes.get(tx);
  if (!pending) throw new Error('queuePush/notify must run inside withPushes(): the push would skip the commit check');
  if (personIds.length > 0) pending.push({ personIds, message });
}
