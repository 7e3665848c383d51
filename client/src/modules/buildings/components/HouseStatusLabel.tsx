import { Label, type SemanticCOLORS } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { HouseStatus } from '@pm/shared';
import { enumLabel } from '../../ui/utils/enumLabels';

const COLORS: Record<number, SemanticCOLORS> = {
  [HouseStatus.unregistered]: 'grey',
  [HouseStatus.noOwner]: 'orange',
  [HouseStatus.notCertified]: 'orange',
  [HouseStatus.verified]: 'teal',
  [HouseStatus.bound]: 'green',
  [HouseStatus.unbound]: 'grey',
};

/** A house's status (SPEC §4), as the api stores it. */
export function HouseStatusLabel({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Label color={COLORS[status] ?? 'grey'} size="small" data-testid="house-status">
      {enumLabel(t, HouseStatus, status)}
    </Label>
  );
}
