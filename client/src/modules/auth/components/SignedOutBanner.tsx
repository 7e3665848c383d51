import { Link, useLocation } from 'react-router-dom';
import { Message } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { session } from '../states/session';
import { loginPathFor } from './RequireAuth';

/** After "stay on this page" (SPEC §8): the page stays readable and says how to sign in again. */
export function SignedOutBanner() {
  const { t } = useTranslation();
  const { ended } = useSnapshot(session);
  const location = useLocation();
  if (!ended) return null;
  return (
    <Message warning className="signed-out-banner" data-testid="signed-out-banner" role="alert">
      <span>{t('layout.signedOut')}</span>{' '}
      <Link to={loginPathFor(location.pathname + location.search)} data-testid="sign-in-again">
        {t('profile.signInAgain')}
      </Link>
    </Message>
  );
}
