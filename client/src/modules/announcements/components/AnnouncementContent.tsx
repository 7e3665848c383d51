import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { AnnouncementType, Identity, SelectionMode } from '@pm/shared';
import { estateInfo } from '../../estate-settings/states/estateInfo';
import { reminderIntervalLabel } from '../../estate-settings/utils/reminderUnit';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';

interface Shown {
  type: number;
  content: string;
  meetingPlace?: string | null;
  meetingTime?: string | null;
  selectionMode?: number | null;
  reminderInterval?: number | null;
  recipientIdentities?: number[];
  options?: { content: string }[];
}

/**
 * The announcement as a resident sees it. The HTML was sanitized by the api with an allow-list
 * before it was stored (or, in the preview, is shown from the editor's own document).
 */
export function AnnouncementContent({ detail }: { detail: Shown }) {
  const { t } = useTranslation();
  const estate = useSnapshot(estateInfo);
  return (
    <div className="announcement-content" data-testid="announcement-content">
      {detail.type === AnnouncementType.meeting && (
        <p>
          {t('announcements.fields.meetingPlace')}: {detail.meetingPlace} · {t('announcements.fields.meetingTime')}:{' '}
          {detail.meetingTime ? formatTime(detail.meetingTime) : ''}
        </p>
      )}
      {/* Sanitized on the server (sanitize-html, allow-list); never raw user input. */}
      <div className="announcement-html" dangerouslySetInnerHTML={{ __html: detail.content }} />
      {detail.type === AnnouncementType.vote && (
        <>
          <p>
            {t('announcements.fields.selectionMode')}: {enumLabel(t, SelectionMode, detail.selectionMode)}
            {detail.reminderInterval
              ? ` · ${reminderIntervalLabel(t, estate.info?.voteReminderUnitMs)}: ${detail.reminderInterval}`
              : ''}
          </p>
          <ol>
            {(detail.options ?? []).map((o, i) => (
              <li key={i}>{o.content}</li>
            ))}
          </ol>
        </>
      )}
      {detail.recipientIdentities && (
        <p>
          {t('announcements.fields.identities')}:{' '}
          {detail.recipientIdentities.map((i) => enumLabel(t, Identity, i)).join(', ')}
        </p>
      )}
    </div>
  );
}
