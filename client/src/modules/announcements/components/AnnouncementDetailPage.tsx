import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Header, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { EmptyPlaceholder } from '../../ui/components/EmptyPlaceholder';
import { useAnnouncementDetail } from '../hooks/useAnnouncementDetail';
import { detailPath } from '../utils/detailPath';
import { revokeWithConfirm } from '../utils/revokeWithConfirm';
import { AnnouncementDetailActions } from './AnnouncementDetailActions';
import { AnnouncementDetailBody } from './AnnouncementDetailBody';
import '../announcements.css';

/**
 * SPEC §2 announcement-detail as a route of its own:
 * `/announcement-management/announcement-detail?open=<id>&tab=result`. It survives a reload, is
 * what the "published" toast and a shared link open, and shows what the list's dialog shows,
 * live. With `confirmRevoke` (the revoke-announcement route) it asks the revoke confirmation at
 * once and then stays on the detail.
 */
export function AnnouncementDetailScreen({ confirmRevoke = false }: { confirmRevoke?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('open')) || null;
  const tab = params.get('tab');
  const [missingId, setMissingId] = useState<number | null>(null);
  const { detail, changes, reload } = useAnnouncementDetail(id, () => setMissingId(id));
  const asked = useRef(false);
  useEffect(() => {
    if (!confirmRevoke || !detail || asked.current) return;
    asked.current = true;
    const revokeThenShow = async () => {
      try {
        if (!detail.revoked) await revokeWithConfirm(t, detail.id);
      } finally {
        navigate(detailPath(detail.id), { replace: true });
      }
    };
    void revokeThenShow();
  }, [confirmRevoke, detail, navigate, t]);

  const back = (
    <Button as={Link} to="/announcement-management/index" basic icon="arrow left" content={t('announcements.back')} />
  );
  if (id === null || (missingId === id && !detail))
    return (
      <Segment basic data-testid="announcement-missing">
        <EmptyPlaceholder text={t('announcements.missing')} />
        {back}
      </Segment>
    );
  if (!detail) return <Segment loading basic style={{ minHeight: 160 }} />;
  return (
    <Segment className="announcement-detail-page" data-testid="announcement-detail-page">
      <div className="announcement-page-head">
        <Header as="h2">{detail.title}</Header>
        <div className="announcement-page-actions">
          {back}
          <AnnouncementDetailActions detail={detail} onRevoked={reload} />
        </div>
      </div>
      <AnnouncementDetailBody
        detail={detail}
        tab={tab}
        tabLink={(next) => detailPath(detail.id, next)}
        changes={changes}
      />
    </Segment>
  );
}

export default function AnnouncementDetailPage() {
  return <AnnouncementDetailScreen />;
}
