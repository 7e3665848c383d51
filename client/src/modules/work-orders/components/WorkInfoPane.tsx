import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WorkStatus } from '@pm/shared';
import type { WorkDetail } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { actionsFor } from '../utils/workFormat';
import type { WorkKind } from '../utils/workKinds';
import { StepForm } from './StepForm';
import { WorkInfoSection } from './WorkInfoSection';
import { WorkRatings } from './WorkRatings';
import { WorkStageInfo } from './WorkStageInfo';

/**
 * The detail dialog's first tab: what was reported, how far it got (SPEC §4: deal info once
 * processing, complete info and rating once completed) and the next step the person may take.
 * After a step the focus goes on to the next one (or to what the step recorded), never to the
 * page; a form whose step someone else took meanwhile closes.
 */
export function WorkInfoPane({
  kind,
  detail,
  onChanged,
}: {
  kind: WorkKind;
  detail: WorkDetail;
  onChanged: (d: WorkDetail) => void;
}) {
  const { t } = useTranslation();
  const canUpdate = usePermission(kind.perms.update);
  const [step, setStep] = useState<'deal' | 'complete' | null>(null);
  const [focusNext, setFocusNext] = useState(false);
  const nextButton = useRef<HTMLButtonElement>(null);
  const pane = useRef<HTMLDivElement>(null);
  const actions = actionsFor(detail.status, canUpdate);

  // The status moved on (here or elsewhere): a form for the old status no longer applies.
  useEffect(() => setStep(null), [detail.status]);
  useEffect(() => {
    if (!focusNext || step !== null) return;
    setFocusNext(false);
    const stages = pane.current?.querySelectorAll<HTMLElement>('[data-stage-heading]');
    (nextButton.current ?? stages?.[stages.length - 1])?.focus();
  }, [focusNext, step, detail.status]);

  const done = (next: WorkDetail) => {
    setStep(null);
    setFocusNext(true);
    onChanged(next);
  };
  return (
    <div data-testid="work-info" ref={pane}>
      <WorkInfoSection kind={kind} detail={detail} />
      {detail.status >= WorkStatus.processing && <WorkStageInfo stage="deal" detail={detail} />}
      {detail.status === WorkStatus.completed && (
        <WorkStageInfo stage="complete" detail={detail}>
          <WorkRatings detail={detail} />
        </WorkStageInfo>
      )}
      {step === null && (actions.deal || actions.complete) && (
        <button
          type="button"
          className="ui primary button"
          ref={nextButton}
          onClick={() => setStep(actions.deal ? 'deal' : 'complete')}
          data-testid={actions.deal ? 'deal-button' : 'complete-button'}
        >
          {t(actions.deal ? 'workOrders.dealWith' : 'workOrders.complete')}
        </button>
      )}
      {step === 'deal' && actions.deal && <StepForm step="deal" kind={kind} detail={detail} onDone={done} />}
      {step === 'complete' && actions.complete && (
        <StepForm step="complete" kind={kind} detail={detail} onDone={done} />
      )}
    </div>
  );
}
