import { useEffect, useState } from 'react';
import { Image, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { Gender, Identity, OperationType } from '@pm/shared';
import { fetchHistoryDetail, imageUrl, type HistoryRow } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { accountText } from './accountText';
import { PersonField } from './PersonField';

/**
 * History staff detail (SPEC §2): personHouseHistoryId, person id, name, gender, account type,
 * identity, join time, departure time, operator and operation type.
 */
export function HistoryDetailDialog({ historyId, onClose }: { historyId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [row, setRow] = useState<HistoryRow | null>(null);
  useEffect(() => {
    if (historyId === null) return;
    const ac = new AbortController();
    setRow(null);
    fetchHistoryDetail(historyId, ac.signal)
      .then(setRow)
      .catch(() => undefined);
    return () => ac.abort();
  }, [historyId]);
  return (
    <DraggableDialog
      open={historyId !== null}
      title={t('owners.history.detailTitle')}
      onClose={onClose}
      data-testid="history-detail"
    >
      {!row ? (
        <Segment loading basic style={{ minHeight: 80 }} />
      ) : (
        <dl className="owners-fields">
          <PersonField label={t('owners.fields.historyId')}>{row.personHouseHistoryId}</PersonField>
          <PersonField label={t('owners.fields.personId')}>{row.personId}</PersonField>
          <PersonField label={t('owners.fields.name')}>
            {row.photo && <Image avatar src={imageUrl(row.photo)} alt="" />} {row.name}
          </PersonField>
          <PersonField label={t('owners.fields.gender')}>{enumLabel(t, Gender, row.gender)}</PersonField>
          <PersonField label={t('owners.fields.accountType')}>{accountText(t, row)}</PersonField>
          <PersonField label={t('owners.fields.house')}>{unitDisplay(row)}</PersonField>
          <PersonField label={t('owners.fields.identity')}>{enumLabel(t, Identity, row.identity)}</PersonField>
          <PersonField label={t('owners.fields.joinTime')}>
            {row.purchaseTime ? formatTime(row.purchaseTime) : ''}
          </PersonField>
          <PersonField label={t('owners.fields.leaveTime')}>
            {row.leaveTime ? formatTime(row.leaveTime) : ''}
          </PersonField>
          <PersonField label={t('owners.fields.operator')}>
            {row.operator?.images[0] && <Image avatar src={imageUrl(row.operator.images[0].url)} alt="" />}{' '}
            {row.operator?.name ?? ''}
          </PersonField>
          <PersonField label={t('owners.fields.operationType')}>
            {enumLabel(t, OperationType, row.operationType)}
          </PersonField>
        </dl>
      )}
    </DraggableDialog>
  );
}
