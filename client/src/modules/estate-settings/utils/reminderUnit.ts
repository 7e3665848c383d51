import type { TFunction } from 'i18next';
import { voteReminderUnitOf } from '@pm/shared';
import { estateInfo } from '../states/estateInfo';

/**
 * The label of a vote's reminder interval in the estate's unit ("Reminder interval (days)"); the
 * general one while the unit is not known or is not a minute, an hour or a day (a test's unit).
 */
export function reminderIntervalLabel(t: TFunction, unitMs = estateInfo.info?.voteReminderUnitMs): string {
  const unit = unitMs === undefined ? 'hour' : voteReminderUnitOf(unitMs);
  return unit ? t(`estateSettings.reminderInterval.${unit}`) : t('announcements.fields.reminderInterval');
}
