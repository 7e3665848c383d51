import { useTranslation } from 'react-i18next';
import { completeWork, type WorkDetail } from '../../api';
import { WorkStatus } from '@pm/shared';
import { ownActionKey, rememberOwnAction } from '../../live/utils/ownActions';
import { showToast } from '../../ui/states/toasts';
import type { WorkKind } from '../utils/workKinds';
import { NoteForm } from './NoteForm';

/** "Complete" (SPEC §4: processing → completed): the completion note and pictures. */
export function CompleteForm({
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
      name="complete"
      title={t('workOrders.completeTitle')}
      label={t('workOrders.completeNote')}
      requiredMessage={t('validation.completeNoteRequired')}
      confirmText={t('workOrders.confirmComplete')}
      submitText={t('workOrders.complete')}
      uploadKind={kind.uploadKind}
      onSubmit={async (note, img) => {
        // Before sending: the live echo of this change may arrive before the answer.
        const key = ownActionKey('workorders', kind.kind, detail.id, WorkStatus.completed);
        rememberOwnAction(key);
        const next = await completeWork(kind.kind, detail.id, note, img);
        showToast('success', t('workOrders.completed'), { key });
        onDone(next);
      }}
    />
  );
}
