import { useEffect, useRef, useState } from 'react';
import { Button, Label, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { AnnouncementType } from '@pm/shared';
import { downloadResults, fetchAnnouncement, type AnnouncementDetail } from '../../api';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { LinkTabs } from '../../ui/components/LinkTabs';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { revokeWithConfirm } from '../utils/revokeWithConfirm';
import { AnnouncementContent } from './AnnouncementContent';
import { AnnouncementResults } from './AnnouncementResults';
import { CommentList } from './CommentList';
import { ReaderList } from './ReaderList';

/** The dialog's tabs (SPEC §2: read lists, unread lists, read result); the first is left out of the URL. */
export type AnnouncementTab = 'content' | 'result' | 'read' | 'unread' | 'comments';
const TABS: AnnouncementTab[] = ['content', 'result', 'read', 'unread', 'comments'];

interface Props {
  id: number | null;
  tab: string | null;
  tabLink: (tab: AnnouncementTab | null) => string;
  onClose: () => void;
  onChanged: () => void;
}

/**
 * The announcement detail (SPEC §2): content as residents see it, read results with pie charts
 * and vote results, read and unread lists; revoke. Follows the record live (reads, votes, revoke).
 */
export function AnnouncementDetailDialog({ id, tab, tabLink, onClose, onChanged }: Props) {
  const { t } = useTranslation();
  const [detail, setDetail] = useState<AnnouncementDetail | null>(null);
  const [reloads, setReloads] = useState(0);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (id === null) setDetail(null);
  }, [id]);
  useEffect(() => {
    if (id === null) return;
    const abort = new AbortController();
    fetchAnnouncement(id, abort.signal).then(setDetail, () => {
      if (!abort.signal.aborted) closeRef.current();
    });
    return () => abort.abort();
  }, [id, reloads]);
  useLiveEvent((e) => {
    if (e.topic === 'announcements' && id !== null && e.dataId === id) setReloads((n) => n + 1);
  });

  const active: AnnouncementTab = TABS.includes(tab as AnnouncementTab) ? (tab as AnnouncementTab) : 'content';
  const shown = detail && detail.id === id ? detail : null;
  return (
    <DraggableDialog
      open={id !== null}
      title={shown?.title ?? t('announcements.detail')}
      onClose={onClose}
      size="large"
      data-testid="announcement-detail"
      actions={
        shown ? (
          <>
            <Button
              basic
              icon="file excel"
              content={t('announcements.export')}
              onClick={() => downloadResults(shown.id)}
              data-testid="export"
            />
            {!shown.revoked && (
              <Button
                color="red"
                data-testid="detail-revoke"
                onClick={async () => {
                  if (await revokeWithConfirm(t, shown.id)) {
                    setReloads((n) => n + 1);
                    onChanged();
                  }
                }}
              >
                {t('announcements.revoke')}
              </Button>
            )}
          </>
        ) : undefined
      }
    >
      {shown ? (
        <>
          <p className="announcement-meta">
            <Label size="small">{enumLabel(t, AnnouncementType, shown.type)}</Label>{' '}
            {shown.revoked && (
              <Label size="small" color="grey" data-testid="detail-revoked">
                {t('announcements.revoked')} {shown.revokedAt ? formatTime(shown.revokedAt) : ''}
              </Label>
            )}{' '}
            {shown.publisherName} · {formatTime(shown.publishTime)}
            {shown.deadline && (
              <>
                {' '}
                · {t('announcements.fields.deadline')}: {formatTime(shown.deadline)}
              </>
            )}
          </p>
          <LinkTabs
            replace
            label={t('announcements.detail')}
            items={TABS.filter((key) => key !== 'comments' || shown.allowComment).map((key) => ({
              key,
              to: tabLink(key === 'content' ? null : key),
              content:
                key === 'read'
                  ? `${t('announcements.tabs.read')} (${shown.totals.read})`
                  : key === 'unread'
                    ? `${t('announcements.tabs.unread')} (${shown.totals.unread})`
                    : t(`announcements.tabs.${key}`),
              active: active === key,
              testId: `tab-${key}`,
            }))}
          />
          {active === 'content' && <AnnouncementContent detail={shown} />}
          {active === 'result' && <AnnouncementResults detail={shown} />}
          {active === 'comments' && <CommentList announcementId={shown.id} />}
          {(active === 'read' || active === 'unread') && (
            <ReaderList detail={shown} read={active === 'read' ? 1 : 0} reloadKey={reloads} />
          )}
        </>
      ) : (
        <Segment loading basic style={{ minHeight: 120 }} />
      )}
    </DraggableDialog>
  );
}
