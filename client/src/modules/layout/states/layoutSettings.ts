import Cookies from 'js-cookie';
import { proxy } from 'valtio';
import { COOKIES } from '@pm/shared';

/** Sidebar and settings-drawer state (SPEC §2); the sidebar's open state is the sidebarStatus cookie (1 open, 0 closed). */
export const layoutSettings = proxy({
  sidebarOpen: Cookies.get(COOKIES.sidebarStatus) !== '0',
  fixedHeader: true,
  sidebarLogo: true,
  tagsView: false,
  pinyinSearch: false,
  drawerOpen: false,
});

export function toggleSidebar(): void {
  layoutSettings.sidebarOpen = !layoutSettings.sidebarOpen;
  Cookies.set(COOKIES.sidebarStatus, layoutSettings.sidebarOpen ? '1' : '0', { sameSite: 'Lax', expires: 365 });
}

export type SettingKey = 'fixedHeader' | 'sidebarLogo' | 'tagsView' | 'pinyinSearch';
export function changeSetting(key: SettingKey, value: boolean): void {
  layoutSettings[key] = value;
}
