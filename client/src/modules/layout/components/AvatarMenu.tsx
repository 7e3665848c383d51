import { Dropdown, Image, Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { imageUrl } from '../../api';
import { session } from '../../auth/states/session';
import { logout } from '../../auth/utils/logout';
import { confirm } from '../../ui/states/confirms';

interface Props {
  onProfile: () => void;
  onChangePassword: () => void;
}

/** Avatar and name with profile, change password and logout (with confirmation). */
export function AvatarMenu({ onProfile, onChangePassword }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const snap = useSnapshot(session);
  const trigger = (
    <span className="avatar-trigger" data-testid="avatar-menu">
      {snap.avatar ? <Image src={imageUrl(snap.avatar)} avatar /> : <Icon name="user circle" size="large" />}
      <span className="avatar-name">{snap.name}</span>
    </span>
  );
  return (
    <Dropdown trigger={trigger} pointing="top right" icon={null}>
      <Dropdown.Menu>
        <Dropdown.Item icon="user" text={t('layout.profile')} onClick={onProfile} data-testid="menu-profile" />
        <Dropdown.Item
          icon="key"
          text={t('layout.changePassword')}
          onClick={onChangePassword}
          data-testid="menu-change-password"
        />
        <Dropdown.Divider />
        <Dropdown.Item
          icon="sign out"
          text={t('layout.logout')}
          data-testid="menu-logout"
          onClick={async () => {
            if (!(await confirm(t('layout.logoutConfirm')))) return;
            await logout();
            navigate('/login', { replace: true });
          }}
        />
      </Dropdown.Menu>
    </Dropdown>
  );
}
