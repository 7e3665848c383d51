import { LANGUAGE_PATH_CODE, type Language } from '@pm/shared';
import { get, post, request } from './http';

export interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in?: number;
}

export interface LoginForm {
  username: string;
  password: string;
  captchaId?: string;
  captchaX?: number;
}

/**
 * POST /oauth/token: a plain OAuth2 answer, not an envelope (internal contract). The console
 * sends no client credentials (a secret in browser JavaScript is no secret): the gateway adds
 * the OAuth client's from its own environment (gateway/src/client-credentials.ts).
 */
export function requestToken(form: LoginForm, signal?: AbortSignal): Promise<TokenAnswer> {
  const body = new URLSearchParams({ grant_type: 'password', username: form.username, password: form.password });
  if (form.captchaId !== undefined && form.captchaX !== undefined) {
    body.set('captchaId', form.captchaId);
    body.set('captchaX', String(Math.round(form.captchaX)));
  }
  return request<TokenAnswer>('/oauth/token', {
    form: body,
    raw: true,
    silent: true,
    signal,
  });
}

export interface CaptchaPuzzle {
  captchaId: string;
  /** Data URLs. */
  background: string;
  piece: string;
  /** Top of the piece in the background, in pixels. */
  y: number;
  /** Width of the background in pixels. */
  width: number;
}

/** POST /captcha/check: "Verification passed/failed" for a drop; a miss uses the puzzle up. */
export const checkCaptcha = (captchaId: string, captchaX: number) =>
  post<{ passed: boolean }>('/captcha/check', { captchaId, captchaX: Math.round(captchaX) }, { silent: true });

export const fetchCaptchaPuzzle = (signal?: AbortSignal) =>
  get<CaptchaPuzzle>('/captcha/puzzle', { signal, silent: true });

export interface CurrentUser {
  accountInfo: { accId: number; personId: number; username: string };
}
export const fetchCurrentUser = () => get<CurrentUser>('/auth/current/user', { silent: true });

export interface AccountInfo {
  /** `timeZone`: the estate's IANA zone (e.g. Asia/Hong_Kong). */
  company?: { companyId: number; housingEstateId: number; companyType: number; timeZone?: string } | null;
  role?: { roleId?: number | null; roleValue?: string; roleName?: string } | null;
  personCompany?: {
    language?: string | null;
    person?: { personId: number; name: string; gender?: number; images?: { url: string }[] } | null;
  } | null;
}
export const fetchAccountInfo = (accId: number) => get<AccountInfo>(`/account/info/${accId}`, { silent: true });

export interface RoleMenu {
  roleId: number;
  roleName: string;
  roleValue: string;
  menus: { menuId: number; name: string; path: string; perms: string | null }[];
}
export const fetchRoleMenu = (roleId: number) => get<RoleMenu>(`/base/sysrole/infoandmenu/${roleId}`, { silent: true });

/** Signs out the given token (the session is already cleared locally, so it is passed in). */
export const signOut = (token: string) =>
  post<unknown>('/auth/signOut', {}, { silent: true, headers: { Authorization: `Bearer ${token}` } });

export const saveAccountLanguage = (accId: number, language: Language) =>
  get<unknown>(`/account/update/language/${accId}/${LANGUAGE_PATH_CODE[language]}`, { silent: true });

/**
 * Changes the password (SPEC §7 /account/checkpassword: personId, objStr = old password; the new
 * one travels as `newPassword`, shared/src/api/account.ts). The api revokes the account's other tokens (internal contract).
 */
export const changePassword = (personId: number, oldPassword: string, newPassword: string) =>
  post<{ token?: string } | null>('/account/checkpassword', { personId, objStr: oldPassword, newPassword });

export const sendForgetPasswordCode = (email: string) => post<unknown>('/account/forget/password', { email });
export const checkForgetPasswordCode = (email: string, code: string) =>
  post<unknown>('/account/check/forgetpwd/code', { email, code });
export const resetForgottenPassword = (email: string, code: string, password: string) =>
  post<unknown>('/account/forgetpwd/reset', { email, code, newPassword: password });
