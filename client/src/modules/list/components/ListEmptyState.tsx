import { Button, Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';

/**
 * An empty list says why: with filters applied, that nothing matches them (and offers to clear
 * them); otherwise that there is nothing yet.
 */
export function ListEmptyState({ filtered, onClear, text }: { filtered: boolean; onClear: () => void; text?: string }) {
  const { t } = useTranslation();
  return (
    <div
      className="empty-placeholder"
      data-testid="empty-placeholder"
      data-empty={filtered ? 'no-match' : 'nothing-yet'}
    >
      <Icon name={filtered ? 'search' : 'inbox'} size="big" aria-hidden="true" />
      <p>{filtered ? t('common.noMatch') : (text ?? t('common.nothingYet'))}</p>
      {filtered && (
        <Button type="button" basic onClick={onClear} data-testid="clear-filters">
          {t('common.clearFilters')}
        </Button>
      )}
    </div>
  );
}
