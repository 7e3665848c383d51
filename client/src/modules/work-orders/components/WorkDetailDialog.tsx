import { useEffect, useRef, useState } from 'react';
import { Message, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { WorkStatus } from '@pm/shared';
import { fetchWorkDetail, type WorkDetail } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { session } from '../../auth/states/session';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { formatTime } from '../../ui/utils/formatTime';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { LinkTabs } from '../../ui/components/LinkTabs';
import type { WorkKind } from '../utils/workKinds';
import { WorkInfoPane } from './WorkInfoPane';
import { WorkReplies } from './WorkReplies';

/** The dialog's tabs; the first is left out of the URL. */
export type WorkDetailTab = 'info' | 'reply';

interface Props {
  kind: WorkKind;
  /** The open record, null = closed. */
  id: number | null;
  /** The tab from the URL. */
  tab: string | null;
  /** Link (URL search) that shows the record on a tab. */
  tabLink: (tab: WorkDetailTab | null) => string;
  onClose: () => void;
  /** The record changed (dealt with, completed, replied): the list reloads. */
  onChanged: () => void;
}

/** Who moved the record on, and when, as the dialog says it (from the record itself). */
function changeNotice(d: WorkDetail): { key: string; name: string; time: string; personId: number | null } | null {
  if (d.status === WorkStatus.completed)
    return {
      key: 'workOrders.changedCompleted',
      name: d.personCompleteName ?? '',
      time: d.completeTime ?? '',
      personId: d.personCompleteId,
    };
  if (d.status === WorkStatus.processing)
    return {
      key: 'workOrders.changedDealt',
      name: d.personDealName ?? '',
      time: d.dealTime ?? '',
      personId: d.personDealId,
    };
  return null;
}

/**
 * The detail dialog (SPEC §2): info tab, and the reply tab for those with …:reply; tabs are links.
 * It follows the record live: when someone else deals with or completes it, the dialog shows the
 * new status and says who and when; a new reply shows in the reply tab.
 */
export function WorkDetailDialog({ kind, id, tab, tabLink, onClose, onChanged }: Props) {
  const { t } = useTranslation();
  const canReply = usePermission(kind.perms.reply);
  const [detail, setDetail] = useState<WorkDetail | null>(null);
  const [reloads, setReloads] = useState(0);
  const [notice, setNotice] = useState<ReturnType<typeof changeNotice>>(null);
  const shownStatus = useRef<number | null>(null);
  shownStatus.current = detail && detail.id === id ? detail.status : null;
  // The parent re-renders on every live update with a new onClose; the detail must not be
  // fetched again (and an open deal or complete form lost) because of that.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    setNotice(null);
    if (id === null) return setDetail(null);
  }, [id]);
  useEffect(() => {
    if (id === null) return;
    const abort = new AbortController();
    fetchWorkDetail(kind.kind, id, abort.signal).then(
      (fresh) => {
        // Moved on while shown here, by someone else (the person's own step says so itself).
        const before = shownStatus.current;
        const notice = changeNotice(fresh);
        if (before !== null && fresh.status !== before && notice && notice.personId !== session.pId) setNotice(notice);
        setDetail(fresh);
      },
      () => {
        if (!abort.signal.aborted) closeRef.current();
      },
    );
    return () => abort.abort();
  }, [kind.kind, id, reloads]);

  // A status change or a reply on this record, from anyone: fetch it again.
  useLiveEvent((e) => {
    if (e.topic === 'workorders' && e.kind === kind.kind && id !== null && e.dataId === id && e.action !== 'new')
      setReloads((n) => n + 1);
  });

  const active: WorkDetailTab = tab === 'reply' && canReply ? 'reply' : 'info';
  const shown = detail && detail.id === id ? detail : null;
  return (
    <DraggableDialog
      open={id !== null}
      title={shown?.name ?? t('workOrders.details')}
      onClose={onClose}
      size="large"
      data-testid="work-detail"
    >
      {shown ? (
        <>
          {notice && (
            <Message info size="small" role="status" data-testid="work-changed-notice">
              {t(notice.key, { name: notice.name, time: formatTime(notice.time) })}
            </Message>
          )}
          <LinkTabs
            replace
            label={t('workOrders.details')}
            className="work-detail-tabs"
            items={[
              {
                key: 'info',
                to: tabLink(null),
                content: t(kind.infoTab),
                active: active === 'info',
                testId: 'tab-info',
              },
              ...(canReply
                ? [
                    {
                      key: 'reply',
                      to: tabLink('reply'),
                      content: t('workOrders.replyCount', { count: shown.replyCount }),
                      active: active === 'reply',
                      testId: 'tab-reply',
                    },
                  ]
                : []),
            ]}
          />
          {active === 'info' ? (
            <WorkInfoPane
              kind={kind}
              detail={shown}
              onChanged={(d) => {
                setDetail(d);
                onChanged();
              }}
            />
          ) : (
            <WorkReplies kind={kind} detail={shown} onReplied={() => setReloads((n) => n + 1)} />
          )}
        </>
      ) : (
        <Segment loading basic style={{ minHeight: 120 }} />
      )}
    </DraggableDialog>
  );
}
