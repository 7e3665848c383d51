import { useState } from 'react';
import { Button } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { WorkStatus } from '@pm/shared';
import type { WorkDetail } from '../../api';
import { usePermission } from '../../auth/hooks/usePermission';
import { actionsFor } from '../utils/workFormat';
import type { WorkKind } from '../utils/workKinds';
import { CompleteForm } from './CompleteForm';
import { DealForm } from './DealForm';
import { WorkInfoSection } from './WorkInfoSection';
import { WorkRatings } from './WorkRatings';
import { WorkStageInfo } from './WorkStageInfo';

/**
 * The detail dialog's first tab: what was reported, how far it got (SPEC §4: deal info once
 * processing, complete info and rating once completed) and the next step the person may take.
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
  const actions = actionsFor(detail.status, canUpdate);
  const done = (next: WorkDetail) => {
    setStep(null);
    onChanged(next);
  };
  return (
    <div data-testid="work-info">
      <WorkInfoSection kind={kind} detail={detail} />
      {detail.status >= WorkStatus.processing && <WorkStageInfo stage="deal" detail={detail} />}
      {detail.status === WorkStatus.completed && (
        <WorkStageInfo stage="complete" detail={detail}>
          <WorkRatings detail={detail} />
        </WorkStageInfo>
      )}
      {step === null && (actions.deal || actions.complete) && (
        <Button
          primary
          onClick={() => setStep(actions.deal ? 'deal' : 'complete')}
          data-testid={actions.deal ? 'deal-button' : 'complete-button'}
        >
          {t(actions.deal ? 'workOrders.dealWith' : 'workOrders.complete')}
        </Button>
      )}
      {step === 'deal' && <DealForm kind={kind} detail={detail} onDone={done} />}
      {step === 'complete' && <CompleteForm kind={kind} detail={detail} onDone={done} />}
    </div>
  );
}
