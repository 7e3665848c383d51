import { Link } from 'react-router-dom';
import { Button, Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';

/** /404: the page is lost (SPEC §2). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="not-found" data-testid="not-found">
      <div className="not-found-code">404</div>
      <Icon name="map signs" size="massive" color="teal" />
      <h2>{t('routes.notFound')}</h2>
      <p>{t('errors.pageLost')}</p>
      <Button as={Link} to="/" primary>
        {t('common.backHome')}
      </Button>
    </div>
  );
}
