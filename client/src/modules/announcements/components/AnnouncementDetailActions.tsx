import { Button } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { downloadResults, type AnnouncementDetail } from '../../api';
import { revokeWithConfirm } from '../utils/revokeWithConfirm';

/** The detail's buttons: export the lists and results to Excel; revoke (after a confirmation) while in force. */
export function AnnouncementDetailActions({
  detail,
  onRevoked,
}: {
  detail: AnnouncementDetail;
  onRevoked: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Button
        basic
        icon="file excel"
        content={t('announcements.export')}
        onClick={() => downloadResults(detail.id)}
        data-testid="export"
      />
      {!detail.revoked && (
        <Button
          color="red"
          data-testid="detail-revoke"
          onClick={async () => {
            if (await revokeWithConfirm(t, detail.id)) onRevoked();
          }}
        >
          {t('announcements.revoke')}
        </Button>
      )}
    </>
  );
}
