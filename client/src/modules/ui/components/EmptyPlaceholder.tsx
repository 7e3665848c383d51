import { Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';

/** Shown instead of an empty list. */
export function EmptyPlaceholder({ text }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <div className="empty-placeholder" data-testid="empty-placeholder">
      <Icon name="inbox" size="big" />
      <div>{text ?? t('common.noData')}</div>
    </div>
  );
}
