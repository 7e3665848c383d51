import { Link } from 'react-router-dom';
import { Button, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { useAnnouncementDetail } from '../hooks/useAnnouncementDetail';
import { detailPath } from '../utils/detailPath';
import { AnnouncementDetailActions } from './AnnouncementDetailActions';
import { AnnouncementDetailBody, type AnnouncementTab } from './AnnouncementDetailBody';

interface Props {
  id: number | null;
  tab: string | null;
  tabLink: (tab: AnnouncementTab | null) => string;
  onClose: () => void;
  onChanged: () => void;
}

/**
 * The announcement detail over the list (SPEC §2): content as residents see it, read results with
 * pie charts and vote results, read and unread lists, comments; export, revoke. Follows the
 * record live. The same detail is a route of its own: AnnouncementDetailPage.
 */
export function AnnouncementDetailDialog({ id, tab, tabLink, onClose, onChanged }: Props) {
  const { t } = useTranslation();
  const { detail, changes, reload } = useAnnouncementDetail(id, onClose);
  return (
    <DraggableDialog
      open={id !== null}
      title={detail?.title ?? t('announcements.detail')}
      onClose={onClose}
      size="large"
      data-testid="announcement-detail"
      actions={
        detail ? (
          <>
            <Button
              as={Link}
              to={detailPath(detail.id, tab)}
              basic
              icon="linkify"
              content={t('announcements.openPage')}
              data-testid="open-page"
            />
            <AnnouncementDetailActions
              detail={detail}
              onRevoked={() => {
                reload();
                onChanged();
              }}
            />
          </>
        ) : undefined
      }
    >
      {detail ? (
        <AnnouncementDetailBody detail={detail} tab={tab} tabLink={tabLink} changes={changes} />
      ) : (
        <Segment loading basic style={{ minHeight: 120 }} />
      )}
    </DraggableDialog>
  );
}
