import { Label, type SemanticCOLORS } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';

const COLORS: Record<number, SemanticCOLORS> = { 1: 'red', 2: 'orange', 3: 'green' };

/** Untreated / processing / completed (SPEC §4). */
export function StatusLabel({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Label color={COLORS[status] ?? 'grey'} size="small" data-testid="status-label">
      {t(`workOrders.status.s${status}`)}
    </Label>
  );
}
