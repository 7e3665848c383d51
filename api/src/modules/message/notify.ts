import type { ChannelOf, MessageTypeOf, PayloadOf, Topic, TopicPush } from '@pm/shared';
import { message } from '../../db/schema';
import type { Tx } from '../../db/open-database';
import { queuePush } from './push-outbox';

/**
 * The topic a notification is pushed on (shared/src/topics): one of its event numbers, one of its
 * message types and its typed payload. A message type or a field the topic does not take is a
 * compile error, so what is written here is what the client reads.
 */
export type NotifiedAs = {
  [T in Topic]: [MessageTypeOf<T>] extends [never]
    ? never
    : {
        /** The upstream event number the push travels under (SPEC §7), e.g. 8 for a complaint. */
        channelType: ChannelOf<T>;
        messageType: MessageTypeOf<T>;
        /** Extra fields of the push, e.g. `{ status: 1 }`; keep them small. */
        push?: PayloadOf<T>;
      };
}[Topic];

/** One notification: stored as a message row per recipient and pushed to each after commit. */
export type NotifyInput = NotifiedAs & {
  companyId: number;
  housingEstateId: number;
  /** The complaint, work order, SOS call, warning or person↔house link the message is about. */
  dataId: number | null;
  recipients: Iterable<number>;
  /** Who caused it; never notified of their own action. */
  personTriggerId?: number | null;
  personHouseHistoryId?: number | null;
  /** Title shown in the message panel (complaint theme, group name …). */
  name?: string | null;
  unitId?: number | null;
  carSpaceId?: number | null;
  shopId?: number | null;
  position?: string | null;
  disasterWarnId?: number | null;
};

export interface Notified {
  personId: number;
  messageId: number;
}

/**
 * Writes the message rows inside the caller's transaction and queues one push per recipient
 * `{ channelType, messageType, messageId, dataId, name, messageTime, ...push }`, published only
 * after the transaction commits. Must run inside `withPushes(db, realtime, tx => …)`.
 */
export async function notify(tx: Tx, input: NotifyInput): Promise<Notified[]> {
  const recipients = [...new Set(input.recipients)].filter((p) => p !== input.personTriggerId);
  if (recipients.length === 0) return [];
  const rows = await tx
    .insert(message)
    .values(
      recipients.map((personId) => ({
        companyId: input.companyId,
        housingEstateId: input.housingEstateId,
        personId,
        messageType: input.messageType,
        dataId: input.dataId,
        personHouseHistoryId: input.personHouseHistoryId ?? null,
        personTriggerId: input.personTriggerId ?? null,
        name: input.name ?? null,
        unitId: input.unitId ?? null,
        carSpaceId: input.carSpaceId ?? null,
        shopId: input.shopId ?? null,
        position: input.position ?? null,
        disasterWarnId: input.disasterWarnId ?? null,
      })),
    )
    .returning({ messageId: message.id, personId: message.personId, messageTime: message.messageTime });
  for (const row of rows) {
    queuePush(tx, [row.personId], {
      channelType: input.channelType,
      messageType: input.messageType,
      messageId: row.messageId,
      ...(input.dataId !== null && { dataId: input.dataId }),
      name: input.name ?? null,
      messageTime: row.messageTime.toISOString(),
      ...input.push,
    } as TopicPush);
  }
  return rows.map((r) => ({ personId: r.personId, messageId: r.messageId }));
}

/** A push without a stored message (status changes, disaster warnings, chat), typed by its topic, after commit. */
export function pushAfterCommit(tx: Tx, recipients: Iterable<number>, push: TopicPush): void {
  queuePush(tx, [...new Set(recipients)], push);
}
