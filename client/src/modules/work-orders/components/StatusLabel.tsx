import { Label, type SemanticCOLORS } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { WorkStatus } from '@pm/shared';
import { enumLabel } from '../../ui/utils/enumLabels';

const COLORS: Record<number, SemanticCOLORS> = {
  [WorkStatus.untreated]: 'red',
  [WorkStatus.processing]: 'orange',
  [WorkStatus.completed]: 'green',
};

/** Untreated / processing / completed (SPEC §4). */
export function StatusLabel({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Label color={COLORS[status] ?? 'grey'} size="small" data-testid="status-label">
      {enumLabel(t, WorkStatus, status)}
    </Label>
  );
}
