import { useTranslation } from 'react-i18next';
import { dealWith, type WorkDetail } from '../../api';
import { WorkStatus } from '@pm/shared';
import { ownActionKey, rememberOwnAction } from '../../live/utils/ownActions';
import { showToast } from '../../ui/states/toasts';
import type { WorkKind } from '../utils/workKinds';
import { NoteForm } from './NoteForm';

/** "Deal with" (SPEC §4: untreated → processing): the reply note and pictures. */
export function DealForm({
  kind,
  detail,
  onDone,
}: {
  kind: WorkKind;
  detail: WorkDetail;
  onDone: (d: WorkDetail) => void;
}) {
  const { t } = useTranslation();
  return (
    <NoteForm
      name="deal"
      title={t('workOrders.dealTitle')}
      label={t('workOrders.dealNote')}
      requiredMessage={t('validation.dealNoteRequired')}
      confirmText={t('workOrders.confirmDeal')}
      submitText={t('workOrders.dealWith')}
      uploadKind={kind.uploadKind}
      onSubmit={async (note, img) => {
        // Before sending: the live echo of this change may arrive before the answer.
        const key = ownActionKey('workorders', kind.kind, detail.id, WorkStatus.processing);
        rememberOwnAction(key);
        const next = await dealWith(kind.kind, detail.id, note, img);
        showToast('success', t('workOrders.dealt'), { key });
        onDone(next);
      }}
    />
  );
}
