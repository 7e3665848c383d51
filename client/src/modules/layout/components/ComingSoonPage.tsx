import { Icon, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { routeTitleKey } from '../utils/pageTitle';
import { useLocation } from 'react-router-dom';

/** What a menu entry of a feature screen opens until that screen is built. */
export default function ComingSoonPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const key = routeTitleKey(pathname);
  return (
    <Segment className="coming-soon" data-testid="coming-soon">
      <Icon name="wrench" size="huge" color="teal" />
      <h2>{key ? t(key) : t('app.title')}</h2>
      <p>{t('common.comingSoon')}</p>
    </Segment>
  );
}
