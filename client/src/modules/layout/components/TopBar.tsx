import { Link } from 'react-router-dom';
import { Button, Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import {
  ALARM_TYPES,
  MESSAGE_PANEL_TYPES,
  SOS_RECIPIENT_PERMISSIONS,
  alarmCount,
  isAdminRole,
  messageCount,
} from '@pm/shared';
import { session } from '../../auth/states/session';
import { LanguageSelector } from '../../i18n/components/LanguageSelector';
import { ConnectionStatus } from '../../live/components/ConnectionStatus';
import { liveState } from '../../live/states/liveState';
import { layoutSettings, toggleSidebar } from '../states/layoutSettings';
import { AvatarMenu } from './AvatarMenu';
import { Bell } from './Bell';
import { Breadcrumbs } from './Breadcrumbs';
import { ErrorLogButton } from './ErrorLogButton';

interface Props {
  onProfile: () => void;
  onChangePassword: () => void;
}

/** The top bar of SPEC §2. */
export function TopBar({ onProfile, onChangePassword }: Props) {
  const { t } = useTranslation();
  const snap = useSnapshot(session);
  const settings = useSnapshot(layoutSettings);
  const live = useSnapshot(liveState);
  const open = settings.narrow ? settings.mobileMenuOpen : settings.sidebarOpen;
  // The SOS bell only for those who receive SOS calls (not declarations alone: the message bell lists those).
  const seesAlarms = SOS_RECIPIENT_PERMISSIONS.some((p) => snap.perms.includes(p));
  return (
    <header className={`app-topbar${settings.fixedHeader ? ' fixed' : ''}`} data-testid="topbar">
      <Button
        basic
        icon
        className="topbar-button"
        onClick={toggleSidebar}
        title={t(open ? 'layout.collapse' : 'layout.expand')}
        aria-label={t(open ? 'layout.collapse' : 'layout.expand')}
        data-testid="sidebar-toggle"
      >
        <Icon name={open ? 'outdent' : 'indent'} />
      </Button>
      <Breadcrumbs />
      <div className="topbar-right">
        <ConnectionStatus />
        {seesAlarms && (
          <Bell
            icon="warning sign"
            label={t('layout.alarms')}
            count={alarmCount(live.snapshot)}
            types={ALARM_TYPES}
            testId="alarm-bell"
          />
        )}
        <Bell
          icon="bell outline"
          label={t('layout.messages')}
          count={messageCount(live.snapshot)}
          types={MESSAGE_PANEL_TYPES}
          testId="message-bell"
        />
        <ErrorLogButton />
        {isAdminRole(snap.roleValue) && (
          <Button
            as={Link}
            to="/enterprise-management/index"
            basic
            icon
            className="topbar-button"
            title={t('routes.enterpriseManagement')}
            aria-label={t('routes.enterpriseManagement')}
            data-testid="settings-gear"
          >
            <Icon name="setting" />
          </Button>
        )}
        <LanguageSelector />
        <AvatarMenu onProfile={onProfile} onChangePassword={onChangePassword} />
      </div>
    </header>
  );
}
