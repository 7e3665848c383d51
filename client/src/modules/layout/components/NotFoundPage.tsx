import { Link } from 'react-router-dom';
import { Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';

/** /404: the page does not exist (SPEC §2). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="not-found" data-testid="not-found">
      <div className="not-found-code" aria-hidden="true">
        404
      </div>
      <Icon name="map signs" size="massive" color="teal" aria-hidden="true" />
      <h1>{t('routes.notFound')}</h1>
      <p>{t('errors.pageLost')}</p>
      <Link to="/" className="ui primary button">
        {t('common.backHome')}
      </Link>
    </main>
  );
}
