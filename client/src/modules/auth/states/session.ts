import Cookies from 'js-cookie';
import { proxy } from 'valtio';
import { COOKIES, LAYOUT_ROUTES, type RouteDef } from '@pm/shared';

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
});

export function setToken(token: string): void {
  session.token = token;
  session.ready = false;
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
  roleId: number;
  perms: string[];
  routes: RouteDef[];
}

/** Stores what the login flow found and persists the cookie part of it. */
export function completeSession(p: SessionProfile): void {
  Object.assign(session, p, { ready: true });
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

/** Clears the token, menu and role (SPEC §4 logout and every login-flow failure). */
export function resetSession(): void {
  for (const name of [COOKIES.token, COOKIES.roleValue, COOKIES.name, COOKIES.pId, COOKIES.accId]) Cookies.remove(name);
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
  });
}

/** All layout routes, for tests and for telling "not allowed" from "unknown". */
export const ALL_LAYOUT_ROUTES = LAYOUT_ROUTES;
