import { z } from 'zod';
import {
  AccountDeleteSchema,
  AccountInfoSchema,
  AccountPageAnswerSchema,
  AccountPageSchema,
  AccountRoleParamsSchema,
  AccountUpdateSchema,
  CheckPasswordAnswerSchema,
  CheckPasswordSchema,
  ForgetPasswordCodeSchema,
  ForgetPasswordResetSchema,
  ForgetPasswordSchema,
  IdParamsSchema,
  LanguageParamsSchema,
  ResetPasswordAnswerSchema,
} from '@pm/shared';
import { defineRoute, type ApiModule } from '../../http/define-route';
import {
  accountInfo,
  accountPage,
  assertMayManage,
  changePassword,
  deleteAccounts,
  languageFromPath,
  resetPassword,
  saveAccount,
  setRole,
  updateLanguage,
} from './account.service';
import { checkResetCode, resetWithCode, sendResetCode } from './forgot-password.service';

/** SPEC §7 "Authentication and account": the signed-in person's account and the account list of system settings. */
export const accountModule: ApiModule = {
  name: 'account',
  routes: [
    defineRoute({
      method: 'get',
      path: '/account/info/:id',
      permission: 'authenticated',
      summary:
        'Account info (SPEC §3 "Session user"): company, role, personCompany. Own account, or any with system:account',
      params: IdParamsSchema,
      response: AccountInfoSchema,
      handler: async (ctx, { params }) => {
        assertMayManage(ctx, params.id);
        return accountInfo(ctx.db, ctx.tenant, params.id);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/account/update/language/:accId/:lang',
      permission: 'authenticated',
      summary: 'Saves the language of an account (lang EN, ZH_CN or ZH_TW)',
      params: LanguageParamsSchema,
      handler: async (ctx, { params }) => {
        assertMayManage(ctx, params.accId);
        await updateLanguage(ctx, params.accId, languageFromPath(params.lang));
        return null;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/account/checkpassword',
      permission: 'authenticated',
      summary:
        'Changes the own password (objStr = old password); every other token of the account is revoked and a new one answered',
      body: CheckPasswordSchema,
      response: CheckPasswordAnswerSchema,
      handler: async (ctx, { body }) => changePassword(ctx, body, ctx.services.tokens),
    }),
    defineRoute({
      method: 'post',
      path: '/account/forget/password',
      permission: 'public',
      summary:
        'Mails a 6-digit code (valid 5 minutes) to the account with this e-mail. Answers the same whether or not the e-mail is known',
      body: ForgetPasswordSchema,
      handler: async (ctx, { body }) => {
        await sendResetCode(ctx, body.email);
        return null;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/account/check/forgetpwd/code',
      permission: 'public',
      summary: 'Checks a forgot-password code without using it up',
      body: ForgetPasswordCodeSchema,
      handler: async (ctx, { body }) => {
        await checkResetCode(ctx.db, body.email, body.code);
        return null;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/account/forgetpwd/reset',
      permission: 'public',
      summary: 'Sets a new password with a valid code; every token of the account is revoked',
      body: ForgetPasswordResetSchema,
      handler: async (ctx, { body }) => {
        await resetWithCode(ctx, body.email, body.code, body.newPassword);
        return null;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/account/page',
      permission: 'system:account',
      summary: 'Accounts of the estate, paged (keyword on username and name, roleId)',
      body: AccountPageSchema,
      response: AccountPageAnswerSchema,
      handler: async (ctx, { body }) => accountPage(ctx.db, ctx.tenant, body),
    }),
    defineRoute({
      method: 'post',
      path: '/account/update',
      permission: 'system:account',
      summary: 'Changes an account; without accId creates a staff account with its person',
      body: AccountUpdateSchema,
      response: z.object({ accId: z.number() }),
      handler: async (ctx, { body }) => saveAccount(ctx, body),
    }),
    defineRoute({
      method: 'post',
      path: '/account/delete',
      permission: 'system:account',
      summary: 'Deletes accounts of the estate (not the own one); their tokens are revoked',
      body: AccountDeleteSchema,
      handler: async (ctx, { body }) => {
        await deleteAccounts(ctx, body.accIds);
        return null;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/account/reset/password/:id',
      permission: 'system:account',
      summary: 'Gives an account a new random password (answered once) and ends its sessions',
      params: IdParamsSchema,
      response: ResetPasswordAnswerSchema,
      handler: async (ctx, { params }) => resetPassword(ctx, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/account/updaterole/:a/:b',
      permission: 'system:account',
      summary: 'Gives account {a} the role {b}',
      params: AccountRoleParamsSchema,
      handler: async (ctx, { params }) => {
        await setRole(ctx, 'account', params.a, params.b);
        return null;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/account/save/role/:a/:b',
      permission: 'system:account',
      summary: 'Gives the account of person {a} the role {b}',
      params: AccountRoleParamsSchema,
      handler: async (ctx, { params }) => {
        await setRole(ctx, 'person', params.a, params.b);
        return null;
      },
    }),
  ],
};
