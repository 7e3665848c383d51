import { Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import type { SosCall } from '@pm/shared';

const COLORS = { open: 'red', acknowledged: 'orange', closed: 'grey' } as const;

/** An SOS call's state: waiting for someone, acknowledged, closed. */
export function SosStateLabel({ state }: { state: SosCall['state'] }) {
  const { t } = useTranslation();
  return (
    <Label color={COLORS[state]} data-testid="sos-state" data-state={state}>
      {t(`disaster.sos.state.${state}`)}
    </Label>
  );
}
