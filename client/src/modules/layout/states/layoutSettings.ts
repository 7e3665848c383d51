import Cookies from 'js-cookie';
import { proxy } from 'valtio';
import { COOKIES } from '@pm/shared';

export const NARROW_MAX_PX = 880;
const narrowQuery = `(max-width: ${NARROW_MAX_PX}px)`;

const PINYIN_KEY = 'pm.pinyinSearch';
function readPinyinSetting(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(PINYIN_KEY) === '1';
  } catch {
    return false;
  }
}

/** Sidebar and settings-drawer state (SPEC §2); the sidebar's open state is the sidebarStatus cookie (1 open, 0 closed). */
export const layoutSettings = proxy({
  sidebarOpen: Cookies.get(COOKIES.sidebarStatus) !== '0',
  fixedHeader: true,
  sidebarLogo: true,
  tagsView: false,
  /** Address book and chat searches also match full Pinyin and initials (remembered in this browser). */
  pinyinSearch: readPinyinSetting(),
  drawerOpen: false,
  /**
   * Narrow screens (≤ NARROW_MAX_PX, phones): the sidebar is hidden and slides in over the page.
   * Known from the start, so a phone's first frame does not slide the page in from the left.
   */
  narrow: typeof window !== 'undefined' && window.matchMedia?.(narrowQuery).matches === true,
  mobileMenuOpen: false,
});

/** Follows the screen width; returns the function that stops following it. */
export function watchScreenWidth(): () => void {
  const query = window.matchMedia(narrowQuery);
  const apply = () => {
    layoutSettings.narrow = query.matches;
    if (!query.matches) layoutSettings.mobileMenuOpen = false;
  };
  apply();
  query.addEventListener('change', apply);
  return () => query.removeEventListener('change', apply);
}

export function closeMobileMenu(): void {
  layoutSettings.mobileMenuOpen = false;
}

/** The top bar's button: on a narrow screen it slides the menu in or out (the cookie is for wide screens). */
export function toggleSidebar(): void {
  if (layoutSettings.narrow) {
    layoutSettings.mobileMenuOpen = !layoutSettings.mobileMenuOpen;
    return;
  }
  layoutSettings.sidebarOpen = !layoutSettings.sidebarOpen;
  Cookies.set(COOKIES.sidebarStatus, layoutSettings.sidebarOpen ? '1' : '0', { sameSite: 'Lax', expires: 365 });
}

export type SettingKey = 'fixedHeader' | 'sidebarLogo' | 'tagsView' | 'pinyinSearch';
export function changeSetting(key: SettingKey, value: boolean): void {
  layoutSettings[key] = value;
  if (key === 'pinyinSearch')
    try {
      localStorage.setItem(PINYIN_KEY, value ? '1' : '0');
    } catch {
      // storage refused (private mode): the switch holds for this tab
    }
}
