import { ChannelType, LIVE_MESSAGE_TYPES } from '@pm/shared';
import { AppError } from '../../http/app-error';
import type { AuthedContext } from '../../http/request-context';
import { markRead, type MessageOwner } from './message.repository';
import { queuePush, withPushes } from './push-outbox';

/**
 * The message panel's use cases (SPEC §7 "Messages"): list and count are the repository's
 * queries as they stand, scoped to the owner the route derives from the caller.
 */
export {
  countUnread,
  listMessages,
  readUnread,
  unreadShape,
  unreadSql,
  unreadValues,
  type MessageOwner,
} from './message.repository';

/**
 * Marks one of the caller's messages read. When that lowers an unread count the live counters
 * show, the caller gets a counters change (numbered like every push), so all their tabs update.
 */
export async function readMessage(ctx: AuthedContext, owner: MessageOwner, messageId: number): Promise<void> {
  const counted = new Set<number>(LIVE_MESSAGE_TYPES);
  await withPushes(
    ctx.db,
    ctx.services.realtime,
    async (tx) => {
      const read = await markRead(tx, owner, messageId);
      if (!read) throw AppError.notFound();
      if (read.wasUnread && counted.has(read.messageType))
        queuePush(tx, [ctx.caller.personId], {
          channelType: ChannelType.countersChanged,
          unreadByType: { [read.messageType]: -1 },
        });
    },
    (err) => ctx.log.error({ err }, 'push after commit failed'),
  );
}
