import { Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { AnnouncementType } from '@pm/shared';
import type { AnnouncementDetail } from '../../api';
import { LinkTabs } from '../../ui/components/LinkTabs';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { AnnouncementContent } from './AnnouncementContent';
import { AnnouncementResults } from './AnnouncementResults';
import { CommentList } from './CommentList';
import { ReaderList } from './ReaderList';

/** The detail's tabs (SPEC §2: read lists, unread lists, read result); the first is left out of the URL. */
export type AnnouncementTab = 'content' | 'result' | 'read' | 'unread' | 'comments';
const TABS: AnnouncementTab[] = ['content', 'result', 'read', 'unread', 'comments'];

interface Props {
  detail: AnnouncementDetail;
  tab: string | null;
  tabLink: (tab: AnnouncementTab | null) => string;
  /** Changes with every live event about it: the read lists and comments reload. */
  changes: number;
}

/**
 * What the detail dialog and the detail route show (SPEC §2 announcement-detail): type, state,
 * publisher and deadline, then tabs for the content as residents see it, the read results with
 * pie charts, the read and unread lists and, when allowed, the comments.
 */
export function AnnouncementDetailBody({ detail, tab, tabLink, changes }: Props) {
  const { t } = useTranslation();
  const active: AnnouncementTab = TABS.includes(tab as AnnouncementTab) ? (tab as AnnouncementTab) : 'content';
  return (
    <>
      <p className="announcement-meta">
        <Label size="small">{enumLabel(t, AnnouncementType, detail.type)}</Label>{' '}
        {detail.revoked && (
          <Label size="small" color="grey" data-testid="detail-revoked">
            {t('announcements.revoked')} {detail.revokedAt ? formatTime(detail.revokedAt) : ''}
          </Label>
        )}{' '}
        {detail.publisherName} · {formatTime(detail.publishTime)}
        {detail.deadline && (
          <>
            {' '}
            · {t('announcements.fields.deadline')}: {formatTime(detail.deadline)}
          </>
        )}
      </p>
      <LinkTabs
        replace
        label={t('announcements.detail')}
        items={TABS.filter((key) => key !== 'comments' || detail.allowComment).map((key) => ({
          key,
          to: tabLink(key === 'content' ? null : key),
          content:
            key === 'read'
              ? `${t('announcements.tabs.read')} (${detail.totals.read})`
              : key === 'unread'
                ? `${t('announcements.tabs.unread')} (${detail.totals.unread})`
                : t(`announcements.tabs.${key}`),
          active: active === key,
          testId: `tab-${key}`,
        }))}
      />
      {active === 'content' && <AnnouncementContent detail={detail} />}
      {active === 'result' && <AnnouncementResults detail={detail} />}
      {active === 'comments' && <CommentList announcementId={detail.id} reloadKey={changes} />}
      {(active === 'read' || active === 'unread') && (
        <ReaderList detail={detail} read={active === 'read' ? 1 : 0} reloadKey={changes} />
      )}
    </>
  );
}
