import { route, type ApiModule } from '../../http/define-route';
import {
  accountInfo,
  accountPage,
  assertMayManage,
  changePassword,
  deleteAccounts,
  languageFromPath,
  resetPassword,
  endSessions,
  saveAccount,
  setRole,
  updateLanguage,
} from './account.service';
import { checkResetCode, resetWithCode, sendResetCode } from './forgot-password.service';

/** SPEC §7 "Authentication and account": the signed-in person's account and the account list of system settings. */
export const accountModule: ApiModule = {
  name: 'account',
  routes: [
    route('GET /account/info/{id}', async (ctx, { params }) => {
      assertMayManage(ctx, params.id);
      return accountInfo(ctx.db, ctx.tenant, params.id);
    }),
    route('GET /account/update/language/{accId}/{lang}', async (ctx, { params }) => {
      assertMayManage(ctx, params.accId);
      await updateLanguage(ctx, params.accId, languageFromPath(params.lang));
      return null;
    }),
    route('POST /account/checkpassword', async (ctx, { body }) => changePassword(ctx, body, ctx.services.tokens)),
    route('POST /account/forget/password', async (ctx, { body }) => {
      await sendResetCode(ctx, body.email);
      return null;
    }),
    route('POST /account/check/forgetpwd/code', async (ctx, { body }) => {
      await checkResetCode(ctx.db, body.email, body.code);
      return null;
    }),
    route('POST /account/forgetpwd/reset', async (ctx, { body }) => {
      await resetWithCode(ctx, body.email, body.code, body.newPassword);
      return null;
    }),
    route('POST /account/page', async (ctx, { body }) => accountPage(ctx.db, ctx.tenant, body)),
    route('POST /account/update', async (ctx, { body }) => saveAccount(ctx, body)),
    route('POST /account/delete', async (ctx, { body }) => {
      await deleteAccounts(ctx, body.accIds);
      return null;
    }),
    route('GET /account/reset/password/{id}', async (ctx, { params }) => resetPassword(ctx, params.id)),
    route('GET /account/updaterole/{a}/{b}', async (ctx, { params }) => {
      await setRole(ctx, 'account', params.a, params.b);
      return null;
    }),
    route('GET /account/save/role/{a}/{b}', async (ctx, { params }) => {
      await setRole(ctx, 'person', params.a, params.b);
      return null;
    }),
    route('POST /account/sessions/end/{id}', async (ctx, { params }) => {
      await endSessions(ctx, params.id);
      return null;
    }),
  ],
};
