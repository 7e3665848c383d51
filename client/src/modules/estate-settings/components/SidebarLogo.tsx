import { Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { imageUrl } from '../../api';
import { estateInfo } from '../states/estateInfo';
import './estate-settings.css';

/**
 * The sidebar's logo (shown while the settings drawer's "sidebar logo" switch is on): the estate's
 * logo and name from its basic set-up, the product's mark and title until it has them.
 */
export function SidebarLogo({ open }: { open: boolean }) {
  const { t } = useTranslation();
  const { info } = useSnapshot(estateInfo);
  const name = info?.name ?? t('app.title');
  return (
    <div className="sidebar-logo" data-testid="sidebar-logo">
      {info?.logo ? (
        <img
          className="sidebar-logo-image"
          src={imageUrl(info.logo)}
          alt={open ? '' : name}
          data-testid="sidebar-logo-image"
        />
      ) : (
        <Icon name="building outline" aria-hidden="true" />
      )}
      {open && <span data-testid="sidebar-estate-name">{name}</span>}
    </div>
  );
}
