import { LANGUAGE_PATH_CODE, type Language } from '@pm/shared';
import { call, type CallAnswer } from './call';

export type TokenAnswer = CallAnswer<'POST /oauth/token'>;

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
  return call('POST /oauth/token', {}, { form: body, raw: true, silent: true, signal });
}

/** Background and piece are data URLs; `y` places the piece, `width` is the background's (pixels). */
export type CaptchaPuzzle = CallAnswer<'GET /captcha/puzzle'>;

/** POST /captcha/check: "Verification passed/failed" for a drop; a miss uses the puzzle up. */
export const checkCaptcha = (captchaId: string, captchaX: number) =>
  call('POST /captcha/check', { captchaId, captchaX: Math.round(captchaX) }, { silent: true });

export const fetchCaptchaPuzzle = (signal?: AbortSignal) => call('GET /captcha/puzzle', {}, { signal, silent: true });

export type CurrentUser = CallAnswer<'GET /auth/current/user'>;
export const fetchCurrentUser = () => call('GET /auth/current/user', {}, { silent: true });

export interface AccountInfo {
  /** `timeZone`: the estate's IANA zone (e.g. Asia/Hong_Kong). */
  company?: { companyId: number; housingEstateId: number; companyType: number; timeZone?: string } | null;
  role?: { roleId?: number | null; roleValue?: string; roleName?: string } | null;
  personCompany?: {
    language?: string | null;
    person?: { personId: number; name: string; gender?: number; images?: { url: string }[] } | null;
  } | null;
}
export const fetchAccountInfo = (accId: number): Promise<AccountInfo> =>
  call('GET /account/info/{id}', { id: accId }, { silent: true });

export type RoleMenu = CallAnswer<'GET /base/sysrole/infoandmenu/{id}'>;
export const fetchRoleMenu = (roleId: number) =>
  call('GET /base/sysrole/infoandmenu/{id}', { id: roleId }, { silent: true });

/** Signs out the given token (the session is already cleared locally, so it is passed in). */
export const signOut = (token: string) =>
  call('POST /auth/signOut', {}, { silent: true, headers: { Authorization: `Bearer ${token}` } });

export const saveAccountLanguage = (accId: number, language: Language) =>
  call('GET /account/update/language/{accId}/{lang}', { accId, lang: LANGUAGE_PATH_CODE[language] }, { silent: true });

/**
 * Changes the password (SPEC §7 /account/checkpassword: personId, objStr = old password; the new
 * one travels as `newPassword`, shared/src/api/account.ts). The api revokes the account's other tokens (internal contract).
 */
export const changePassword = (personId: number, oldPassword: string, newPassword: string) =>
  call('POST /account/checkpassword', { personId, objStr: oldPassword, newPassword });

export const sendForgetPasswordCode = (email: string) => call('POST /account/forget/password', { email });
export const checkForgetPasswordCode = (email: string, code: string) =>
  call('POST /account/check/forgetpwd/code', { email, code });
export const resetForgottenPassword = (email: string, code: string, password: string) =>
  call('POST /account/forgetpwd/reset', { email, code, newPassword: password });
