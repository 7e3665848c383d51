import { Label, type SemanticCOLORS } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import type { AdRow } from '../../api';

const COLOR: Record<AdRow['state'], SemanticCOLORS | undefined> = {
  showing: 'green',
  scheduled: 'blue',
  ended: 'grey',
  off: undefined,
};

/** What residents see of an ad now: showing, scheduled (its period has not begun), ended or off. */
export function AdStateLabel({ state }: { state: AdRow['state'] }) {
  const { t } = useTranslation();
  return (
    <Label size="small" color={COLOR[state]} data-testid="ad-state" data-state={state}>
      {t(`ads.states.${state}`)}
    </Label>
  );
}
