import { Button } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import type { PersonHouseRow } from '../../api';
import type { useHouseActions } from '../hooks/useHouseActions';

/** The buttons of one link: certify / refuse / remove while pending; set as history staff / remove once approved; none once refused. */
export function PersonHouseActions({
  row,
  actions,
  withHistory = false,
}: {
  row: PersonHouseRow;
  actions: ReturnType<typeof useHouseActions>;
  withHistory?: boolean;
}) {
  const { t } = useTranslation();
  const label = (key: string) => `${t(key)} ${row.name}`;
  return (
    <div className="owners-actions">
      {row.status === 1 && (
        <>
          <Button
            size="mini"
            positive
            disabled={actions.busy}
            onClick={() => void actions.certify(row)}
            aria-label={label('owners.actions.certify')}
            data-testid="certify"
          >
            {t('owners.actions.certify')}
          </Button>
          <Button
            size="mini"
            basic
            negative
            disabled={actions.busy}
            onClick={() => actions.setRefusing(row)}
            aria-label={label('owners.actions.refuse')}
            data-testid="refuse"
          >
            {t('owners.actions.refuse')}
          </Button>
        </>
      )}
      {row.status === 2 && withHistory && (
        <Button
          size="mini"
          basic
          primary
          disabled={actions.busy}
          onClick={() => void actions.toHistory(row)}
          aria-label={label('owners.actions.toHistory')}
          data-testid="to-history"
        >
          {t('owners.actions.toHistory')}
        </Button>
      )}
      {row.status !== 3 && (
        <Button
          size="mini"
          basic
          disabled={actions.busy}
          onClick={() => void actions.remove(row)}
          aria-label={label(
            row.identity === 1 || row.status !== 2 ? 'owners.actions.remove' : 'owners.actions.removeMember',
          )}
          data-testid="remove"
        >
          {t(row.identity === 1 || row.status !== 2 ? 'owners.actions.remove' : 'owners.actions.removeMember')}
        </Button>
      )}
    </div>
  );
}
