import { Button, Checkbox, Header, Segment, Sidebar as Drawer } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { EstateSettingsLinks } from '../../estate-settings/components/EstateSettingsLinks';
import { changeSetting, layoutSettings } from '../states/layoutSettings';

/**
 * Settings drawer: fixed header, sidebar logo and Pinyin search (SPEC §2; tags-view lives in the
 * same state), and the estate's settings screens the person may open.
 */
export function SettingsDrawer() {
  const { t } = useTranslation();
  const s = useSnapshot(layoutSettings);
  return (
    <>
      <Button
        icon="sliders horizontal"
        className="settings-handle"
        color="teal"
        aria-label={t('layout.settings')}
        title={t('layout.settings')}
        data-testid="settings-handle"
        onClick={() => (layoutSettings.drawerOpen = true)}
      />
      <Drawer
        as={Segment}
        animation="overlay"
        direction="right"
        visible={s.drawerOpen}
        onHide={() => (layoutSettings.drawerOpen = false)}
        className="settings-drawer"
        data-testid="settings-drawer"
      >
        <Header as="h4">{t('layout.settings')}</Header>
        <div className="setting-row">
          <label htmlFor="setting-fixed-header">{t('layout.fixedHeader')}</label>
          <Checkbox
            id="setting-fixed-header"
            toggle
            checked={s.fixedHeader}
            onChange={(_, d) => changeSetting('fixedHeader', !!d.checked)}
            data-testid="setting-fixed-header"
          />
        </div>
        <div className="setting-row">
          <label htmlFor="setting-sidebar-logo">{t('layout.sidebarLogo')}</label>
          <Checkbox
            id="setting-sidebar-logo"
            toggle
            checked={s.sidebarLogo}
            onChange={(_, d) => changeSetting('sidebarLogo', !!d.checked)}
            data-testid="setting-sidebar-logo"
          />
        </div>
        <div className="setting-row">
          <label htmlFor="setting-pinyin-search">{t('layout.pinyinSearch')}</label>
          <Checkbox
            id="setting-pinyin-search"
            toggle
            checked={s.pinyinSearch}
            onChange={(_, d) => changeSetting('pinyinSearch', !!d.checked)}
            data-testid="setting-pinyin-search"
          />
        </div>
        <EstateSettingsLinks onNavigate={() => (layoutSettings.drawerOpen = false)} />
      </Drawer>
    </>
  );
}
