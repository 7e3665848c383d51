import { useEffect, useRef, useState } from 'react';
import { Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchWorkDetail, type WorkDetail } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
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

/** The detail dialog (SPEC §2): info tab, and the reply tab for those with …:reply; tabs are links. */
export function WorkDetailDialog({ kind, id, tab, tabLink, onClose, onChanged }: Props) {
  const { t } = useTranslation();
  const canReply = usePermission(kind.perms.reply);
  const [detail, setDetail] = useState<WorkDetail | null>(null);
  const [reloads, setReloads] = useState(0);
  // The parent re-renders on every live update with a new onClose; the detail must not be
  // fetched again (and an open deal or complete form lost) because of that.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (id === null) return setDetail(null);
    const abort = new AbortController();
    fetchWorkDetail(kind.kind, id, abort.signal).then(setDetail, () => {
      if (!abort.signal.aborted) closeRef.current();
    });
    return () => abort.abort();
  }, [kind.kind, id, reloads]);

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
