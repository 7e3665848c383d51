import Cookies from 'js-cookie';
import { COOKIES, LAYOUT_ROUTES, filterRoutes, parseLanguage } from '@pm/shared';
import { ApiError, fetchAccountInfo, fetchCurrentUser, fetchRoleMenu } from '../../api';
import { changeLanguage, i18n } from '../../i18n/i18n';
import { completeSession, resetSession, type SessionProfile } from '../states/session';
import { permissionsOf } from './permissionsOf';

/**
 * The api could not be reached (no network, a timeout, or the gateway answering 502–504 while the
 * api restarts): the token may well still be good, so the session is kept and loaded again later.
 */
export function isUnreachable(e: unknown): boolean {
  return e instanceof ApiError && (e.status === 0 || (e.status >= 502 && e.status <= 504));
}

/**
 * SPEC §4 after the token: current user → account info → role menu → allowed routes.
 * Resolves with the profile (already stored) or rejects with a readable message; on any
 * failure but an unreachable api (`isUnreachable`, rethrown as it is) the token is cleared.
 */
export async function loadSession(): Promise<SessionProfile> {
  try {
    const { profile, language } = await readProfile();
    completeSession(profile);
    // The account's saved language applies when this browser has not chosen one (cookie first).
    if (language && !Cookies.get(COOKIES.language) && language !== i18n.language) void changeLanguage(language);
    return profile;
  } catch (e) {
    if (isUnreachable(e)) throw e;
    resetSession();
    const message = e instanceof ApiError || e instanceof Error ? e.message : i18n.t('errors.generic');
    throw new Error(message || i18n.t('errors.generic'));
  }
}

/**
 * The signed-in person as the api sees them now (current user → account info → role menu →
 * allowed routes), without storing it: the login flow stores it, an access change compares first.
 */
export async function readProfile(): Promise<{ profile: SessionProfile; language: ReturnType<typeof parseLanguage> }> {
  const user = await fetchCurrentUser();
  const accId = user.accountInfo.accId;
  const info = await fetchAccountInfo(accId);
  const roleId = info.role?.roleId;
  if (roleId == null) throw new Error(i18n.t('errors.noPagePermission'));
  let menus;
  try {
    menus = await fetchRoleMenu(roleId);
  } catch (e) {
    if (isUnreachable(e)) throw e;
    throw new Error(i18n.t('errors.roleFailed'));
  }
  const roleValue = menus.roleValue ?? info.role?.roleValue ?? '';
  const perms = permissionsOf(menus.menus ?? [], roleValue);
  const person = info.personCompany?.person;
  const profile: SessionProfile = {
    accId,
    pId: person?.personId ?? user.accountInfo.personId,
    name: person?.name ?? user.accountInfo.username,
    avatar: person?.images?.[0]?.url ?? '',
    gender: person?.gender,
    companyId: info.company?.companyId,
    housingEstateId: info.company?.housingEstateId,
    companyType: info.company?.companyType,
    timeZone: info.company?.timeZone,
    roleId,
    roleValue,
    perms,
    routes: filterRoutes(LAYOUT_ROUTES, new Set(perms), roleValue),
  };
  return { profile, language: parseLanguage(info.personCompany?.language) };
}
