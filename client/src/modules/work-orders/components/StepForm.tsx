import { useTranslation } from 'react-i18next';
import { completeWork, dealWith, type WorkDetail } from '../../api';
import { WorkStatus } from '@pm/shared';
import { ownActionKey, rememberOwnAction } from '../../live/utils/ownActions';
import { showToast } from '../../ui/states/toasts';
import type { WorkKind } from '../utils/workKinds';
import { NoteForm } from './NoteForm';

/**
 * The two steps of SPEC §4, each a note and pictures: "deal with" (untreated → processing) and
 * "complete" (processing → completed). What differs between them is this table.
 */
const STEPS = {
  deal: {
    title: 'workOrders.dealTitle',
    label: 'workOrders.dealNote',
    required: 'validation.dealNoteRequired',
    confirm: 'workOrders.confirmDeal',
    submit: 'workOrders.dealWith',
    done: 'workOrders.dealt',
    status: WorkStatus.processing,
    send: dealWith,
  },
  complete: {
    title: 'workOrders.completeTitle',
    label: 'workOrders.completeNote',
    required: 'validation.completeNoteRequired',
    confirm: 'workOrders.confirmComplete',
    submit: 'workOrders.complete',
    done: 'workOrders.completed',
    status: WorkStatus.completed,
    send: completeWork,
  },
} as const;

export function StepForm({
  step,
  kind,
  detail,
  onDone,
}: {
  step: keyof typeof STEPS;
  kind: WorkKind;
  detail: WorkDetail;
  onDone: (d: WorkDetail) => void;
}) {
  const { t } = useTranslation();
  const s = STEPS[step];
  return (
    <NoteForm
      name={step}
      title={t(s.title)}
      label={t(s.label)}
      requiredMessage={t(s.required)}
      confirmText={t(s.confirm)}
      submitText={t(s.submit)}
      uploadKind={kind.uploadKind}
      onSubmit={async (note, img) => {
        // Before sending: the live echo of this change may arrive before the answer.
        const key = ownActionKey('workorders', kind.kind, detail.id, s.status);
        rememberOwnAction(key);
        const next = await s.send(kind.kind, detail.id, note, img);
        showToast('success', t(s.done), { key });
        onDone(next);
      }}
    />
  );
}
