import type { NavigateFunction } from 'react-router-dom';
import { flattenRoutes, matchRouteChain, type AccessEvent, type RouteDef } from '@pm/shared';
import { i18n } from '../../i18n/i18n';
import { showToast } from '../../ui/states/toasts';
import { completeSession, session } from '../states/session';
import { readProfile } from './loginFlow';

/** How long the "screen closed" notice stays (it is read, not glanced at). */
export const SCREEN_CLOSED_TOAST_MS = 8_000;

/** Where a person goes when their screen closed: the dashboard, or the first screen they may open. */
export function allowedLanding(routes: readonly RouteDef[]): string {
  const screens = flattenRoutes(routes as RouteDef[]).filter((r) => !r.redirect);
  return (screens.find((r) => r.path === '/dashboard') ?? screens.find((r) => !r.hidden) ?? screens[0])?.path ?? '/404';
}

/** The layout screen a path shows, when it is one of these routes. */
function screenOf(path: string, routes: readonly RouteDef[]): RouteDef | undefined {
  return matchRouteChain(path, routes as RouteDef[]).at(-1);
}

/**
 * The screen an access change closed and where its tab goes instead. The layout's routes read it:
 * the router may render the new routes before the location moves (its navigation is a transition),
 * and that path must then lead to the allowed screen, not to "not found".
 */
export let closedScreen: { from: string; to: string } | null = null;

let reading: Promise<void> | null = null;
let readAgain = false;

/**
 * The `access` topic (issue 30): this person's role, permissions, department or account changed.
 * The gateway has already stopped the topics they lost; here the profile is read again (current
 * user, account, role menu), so the menu and the permission directive rebuild, and a screen they
 * may no longer open is left for an allowed one with a clear message, all without signing in
 * again. A revoked account needs nothing here: its tabs get the session topic's forced logout.
 */
export function handleAccessEvent(e: AccessEvent, navigate: NavigateFunction, pathname: () => string): void {
  if (e.kind !== 'permissions' || !session.token) return;
  // Changes in quick succession: one read at a time, and one more after it.
  if (reading) {
    readAgain = true;
    return;
  }
  reading = refreshAccess(navigate, pathname).finally(() => {
    reading = null;
    if (readAgain) {
      readAgain = false;
      handleAccessEvent(e, navigate, pathname);
    }
  });
}

async function refreshAccess(navigate: NavigateFunction, pathname: () => string): Promise<void> {
  const token = session.token;
  let profile;
  try {
    ({ profile } = await readProfile());
  } catch {
    // Signed out meanwhile (the session topic says so) or the api is restarting: every call of
    // the screen is checked by the api anyway, and the next change reads again.
    return;
  }
  if (session.token !== token) return;
  const path = pathname();
  const before = screenOf(path, session.routes);
  const closed = before !== undefined && screenOf(path, profile.routes) === undefined;
  if (closed) {
    const screen = before.title ? i18n.t(`routes.${before.title}`) : path;
    const to = allowedLanding(profile.routes);
    closedScreen = { from: path, to };
    navigate(to, { replace: true });
    showToast('warning', i18n.t('access.screenClosed', { screen }), {
      ms: SCREEN_CLOSED_TOAST_MS,
      key: 'access-changed',
    });
  }
  const menuChanged = profile.perms.join(',') !== session.perms.join(',') || profile.roleValue !== session.roleValue;
  completeSession(profile);
  if (!closed && menuChanged) showToast('info', i18n.t('access.changed'), { key: 'access-changed', ms: 4_000 });
}
