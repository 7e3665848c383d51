import { ChannelType } from '@pm/shared';
import type { Db } from '../../db/open-database';
import { pushAfterCommit } from '../message/notify';
import { withPushes, type PushSink } from '../message/push-outbox';
import { listingStaff } from './announcement.recipients';
import { claimDuePublications, claimDueReminders, recipientsNotVoted, recipientsOf } from './announcement.repository';

/**
 * Announcements published at a set time are told to their recipients when it comes, and vote
 * reminders (issue 20): every `reminderInterval` hours until the deadline, the recipients
 * who have not voted are pushed a reminder (event 9, action "reminder"). The schedule is a column
 * (announcement.next_reminder_at) claimed with one conditional UPDATE, so it survives a restart
 * and with several api processes each announcement's reminder is sent by exactly one of them.
 *
 * The length of one interval unit is the estate's setting (basic set-up, issue 33), or
 * ANNOUNCEMENT_REMINDER_UNIT_MS where it set none (default one hour; tests shorten it).
 * ANNOUNCEMENT_REMINDER_TICK_MS: how often each process looks for due reminders (default 30 s).
 */

function tickMs(): number {
  const v = Number(process.env.ANNOUNCEMENT_REMINDER_TICK_MS);
  return Number.isFinite(v) && v > 0 ? v : 30_000;
}

/**
 * Claims the due reminders and pushes them, in one transaction per tick; answers how many
 * announcements. `defaultUnitMs`: the unit of estates that set none.
 */
export async function sendDueReminders(
  db: Db,
  realtime: PushSink | undefined,
  defaultUnitMs: number,
  now = new Date(),
): Promise<number> {
  return withPushes(db, realtime, async (tx) => {
    for (const a of await claimDuePublications(tx, now)) {
      const [recipients, staff] = await Promise.all([recipientsOf(tx, a.id), listingStaff(tx, a.housingEstateId)]);
      pushAfterCommit(tx, new Set([...recipients, ...staff]), {
        channelType: ChannelType.announcement,
        dataId: a.id,
        action: 'published',
        type: a.type,
        title: a.title,
        name: a.title,
        messageTime: now.toISOString(),
      });
    }
    const due = await claimDueReminders(tx, now, defaultUnitMs);
    for (const a of due) {
      pushAfterCommit(tx, await recipientsNotVoted(tx, a.id), {
        channelType: ChannelType.announcement,
        dataId: a.id,
        action: 'reminder',
        type: 3,
        title: a.title,
        messageTime: now.toISOString(),
      });
    }
    return due.length;
  });
}

/** Starts the timer of one api process; answers its stop function. */
export function startReminders(
  db: Db,
  realtime: PushSink | undefined,
  defaultUnitMs: number,
  onError: (err: unknown) => void,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sendDueReminders(db, realtime, defaultUnitMs)
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, tickMs());
  timer.unref();
  return () => clearInterval(timer);
}
