import { Link } from 'react-router-dom';
import { Header, Icon, List, type SemanticICONS } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { flattenRoutes, type RouteDef } from '@pm/shared';
import { session } from '../../auth/states/session';

/** The estate's own settings screens (hidden routes of SPEC §2), opened from the settings drawer. */
const SETTINGS_PATHS = ['/basic-set-up/index', '/ad-settings/index'];

/** Links to the estate's settings screens the person may open (none: nothing is shown). */
export function EstateSettingsLinks({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const { routes } = useSnapshot(session);
  const allowed = flattenRoutes(routes as RouteDef[]).filter((r) => SETTINGS_PATHS.includes(r.path));
  if (allowed.length === 0) return null;
  return (
    <nav aria-labelledby="estate-settings-links" className="estate-settings-links">
      <Header as="h4" id="estate-settings-links">
        {t('estateSettings.drawerTitle')}
      </Header>
      <List>
        {allowed.map((r) => (
          <List.Item key={r.path}>
            <Link to={r.path} onClick={onNavigate} data-testid={`settings-link-${r.path}`}>
              <Icon name={r.icon as SemanticICONS} aria-hidden="true" />
              {t(`routes.${r.title}`)}
            </Link>
          </List.Item>
        ))}
      </List>
    </nav>
  );
}
