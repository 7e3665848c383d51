import { Image, Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { imageUrl } from '../../api';
import { session } from '../../auth/states/session';
import { logout } from '../../auth/utils/logout';
import { MenuButton } from '../../ui/components/MenuButton';
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
  return (
    <MenuButton
      data-testid="avatar-menu"
      className="avatar-menu"
      label={t('layout.accountMenu', { name: snap.name })}
      trigger={
        <span className="avatar-trigger">
          {snap.avatar ? (
            <Image src={imageUrl(snap.avatar)} avatar alt="" />
          ) : (
            <Icon name="user circle" size="large" aria-hidden="true" />
          )}
          <span className="avatar-name">{snap.name}</span>
        </span>
      }
      items={[
        { key: 'profile', icon: 'user', text: t('layout.profile'), onSelect: onProfile, testId: 'menu-profile' },
        {
          key: 'password',
          icon: 'key',
          text: t('layout.changePassword'),
          onSelect: onChangePassword,
          testId: 'menu-change-password',
        },
        {
          key: 'logout',
          icon: 'sign out',
          text: t('layout.logout'),
          dividerBefore: true,
          testId: 'menu-logout',
          onSelect: async () => {
            if (!(await confirm(t('layout.logoutConfirm')))) return;
            await logout();
            navigate('/login', { replace: true });
          },
        },
      ]}
    />
  );
}
