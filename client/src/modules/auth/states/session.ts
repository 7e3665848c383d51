import Cookies from 'js-cookie';
import { proxy } from 'valtio';
import { COOKIES, LAYOUT_ROUTES, type RouteDef } from '@pm/shared';
import { resetLive } from '../../live/states/liveState';
import { setDisplayTimeZone } from '../../ui/utils/formatTime';

/** The signed-in person (SPEC §3 "Session user"); token, role value, name, pId and accId are cookies. */
export interface SessionState {
  token: string | undefined;
  roleValue: string;
  name: string;
  pId: number | undefined;
  accId: number | undefined;
  avatar: string;
  gender: number | undefined;
  companyId: number | undefined;
  housingEstateId: number | undefined;
  companyType: number | undefined;
  roleId: number | undefined;
  /** Permission codes from the role's menus. */
  perms: string[];
  /** The layout routes this person may use (filtered route table). */
  routes: RouteDef[];
  /** True once the login flow finished for the current token. */
  ready: boolean;
  /**
   * The session ended (signed out elsewhere, password changed, token expired) and the person
   * chose to stay: the page stays readable with its menu, signed out, until they sign in again.
   */
  ended: boolean;
  /** The estate's IANA time zone (e.g. Asia/Hong_Kong): every time and day filter uses it. */
  timeZone: string | undefined;
}

const num = (v: string | undefined) => (v && Number.isFinite(Number(v)) ? Number(v) : undefined);

export const session = proxy<SessionState>({
  token: Cookies.get(COOKIES.token) || undefined,
  roleValue: Cookies.get(COOKIES.roleValue) ?? '',
  name: Cookies.get(COOKIES.name) ?? '',
  pId: num(Cookies.get(COOKIES.pId)),
  accId: num(Cookies.get(COOKIES.accId)),
  avatar: '',
  gender: undefined,
  companyId: undefined,
  housingEstateId: undefined,
  companyType: undefined,
  roleId: undefined,
  perms: [],
  routes: [],
  ready: false,
  ended: false,
  timeZone: undefined,
});

export function setToken(token: string): void {
  session.token = token;
  session.ready = false;
  session.ended = false;
  Cookies.set(COOKIES.token, token, { sameSite: 'Lax' });
}

export interface SessionProfile {
  roleValue: string;
  name: string;
  pId: number;
  accId: number;
  avatar: string;
  gender?: number;
  companyId?: number;
  housingEstateId?: number;
  companyType?: number;
  timeZone?: string;
  roleId: number;
  perms: string[];
  routes: RouteDef[];
}

/** Stores what the login flow found and persists the cookie part of it. */
export function completeSession(p: SessionProfile): void {
  Object.assign(session, p, { ready: true, ended: false });
  setDisplayTimeZone(p.timeZone);
  Cookies.set(COOKIES.roleValue, p.roleValue, { sameSite: 'Lax' });
  Cookies.set(COOKIES.name, p.name, { sameSite: 'Lax' });
  Cookies.set(COOKIES.pId, String(p.pId), { sameSite: 'Lax' });
  Cookies.set(COOKIES.accId, String(p.accId), { sameSite: 'Lax' });
}

export function updateProfile(name: string, avatar: string): void {
  session.name = name;
  session.avatar = avatar;
  Cookies.set(COOKIES.name, name, { sameSite: 'Lax' });
}

const removeSessionCookies = () => {
  for (const name of [COOKIES.token, COOKIES.roleValue, COOKIES.name, COOKIES.pId, COOKIES.accId]) Cookies.remove(name);
};

/** Clears the token, menu and role (SPEC §4 logout and every login-flow failure). */
export function resetSession(): void {
  removeSessionCookies();
  resetLive();
  setDisplayTimeZone(undefined);
  Object.assign(session, {
    token: undefined,
    roleValue: '',
    name: '',
    pId: undefined,
    accId: undefined,
    avatar: '',
    gender: undefined,
    roleId: undefined,
    perms: [],
    routes: [],
    ready: false,
    ended: false,
    timeZone: undefined,
  });
}

/**
 * SPEC §8 "stay on this page": the token is reset (cookies and memory) but the menu, the name
 * and the screen stay, so the page remains readable; the layout offers to sign in again.
 */
export function leaveSignedOut(): void {
  removeSessionCookies();
  session.token = undefined;
  session.ended = true;
}

/** All layout routes, for tests and for telling "not allowed" from "unknown". */
export const ALL_LAYOUT_ROUTES = LAYOUT_ROUTES;
