import type { TFunction } from 'i18next';
import { APP_LINK_PREFIX, readAdLink, type ResidentAppScreen } from '@pm/shared';

/** How a jump link reads in the list: the web address, or "App: Announcements". */
export function adLinkText(t: TFunction, link: string | null): string {
  if (!link) return '';
  const target = readAdLink(link);
  if (!target) return link;
  return target.kind === 'web' ? target.url : t('ads.appLink', { screen: t(`ads.screens.${target.screen}`) });
}

/** The link of a resident-app screen. */
export const appLink = (screen: ResidentAppScreen) => `${APP_LINK_PREFIX}${screen}`;
