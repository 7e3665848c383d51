import { z } from 'zod';
import { defineEndpoints } from './endpoint';
import { LANGUAGES } from '../enums';
import {
  IdListSchema,
  IdParamsSchema,
  IdSchema,
  KeywordSchema,
  listPageSchema,
  PageBodySchema,
  PersonImageSchema,
} from './common';

const password = z.string().min(6).max(32);
const email = z.string().trim().toLowerCase().max(200).pipe(z.email());

/** GET /account/info/{accId} (SPEC §3 "Account info"). */
export const AccountInfoSchema = z.object({
  accId: z.number(),
  username: z.string(),
  email: z.string().nullable(),
  company: z.object({
    companyId: z.number(),
    housingEstateId: z.number(),
    companyType: z.number(),
    companyName: z.string(),
    /** The estate's IANA time zone (e.g. Asia/Hong_Kong): days and times of the console are the estate's. */
    timeZone: z.string(),
  }),
  role: z.object({ roleId: z.number(), roleValue: z.string(), roleName: z.string() }).nullable(),
  personCompany: z.object({
    language: z.enum(LANGUAGES),
    person: z.object({
      personId: z.number(),
      name: z.string(),
      gender: z.number(),
      tel: z.string().nullable(),
      images: z.array(PersonImageSchema),
    }),
  }),
});
export type AccountInfo = z.infer<typeof AccountInfoSchema>;

/** GET /account/update/language/{accId}/{LANG}: LANG is EN, ZH_CN or ZH_TW (LANGUAGE_PATH_CODE). */
export const LanguageParamsSchema = z.object({ accId: IdSchema, lang: z.string().max(10) });

/**
 * POST /account/checkpassword: personId, objStr (the old password) and newPassword (our name:
 * SPEC does not show it). Revokes the account's other tokens; answers a new token.
 */
export const CheckPasswordSchema = z.object({
  personId: IdSchema,
  objStr: z.string().min(1).max(128),
  newPassword: password,
});
export const CheckPasswordAnswerSchema = z.object({ token: z.string(), expires_in: z.number() });

/** POST /account/forget/password: sends a 6-digit code (valid 5 minutes) to the account's e-mail. */
export const ForgetPasswordSchema = z.object({ email });
/** POST /account/check/forgetpwd/code */
export const ForgetPasswordCodeSchema = z.object({
  email,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});
/** POST /account/forgetpwd/reset: the code again and the new password; every token of the account is revoked. */
export const ForgetPasswordResetSchema = ForgetPasswordCodeSchema.extend({ newPassword: password });

/** POST /account/page */
export const AccountPageSchema = PageBodySchema.extend({ keyword: KeywordSchema, roleId: IdSchema.optional() });
export const AccountRowSchema = z.object({
  accId: z.number(),
  username: z.string(),
  email: z.string().nullable(),
  personId: z.number(),
  name: z.string(),
  roleId: z.number().nullable(),
  roleName: z.string().nullable(),
  roleValue: z.string().nullable(),
  language: z.string(),
  enabled: z.boolean(),
  createTime: z.string(),
});
export type AccountRow = z.infer<typeof AccountRowSchema>;
export const AccountPageAnswerSchema = listPageSchema(AccountRowSchema);

/**
 * POST /account/update: with accId changes that account; without accId creates a staff
 * account (username, password and name required) with its person.
 */
export const AccountUpdateSchema = z.object({
  accId: IdSchema.optional(),
  username: z.string().trim().min(1).max(64).optional(),
  password: password.optional(),
  email: email.optional(),
  name: z.string().trim().min(1).max(100).optional(),
  roleId: IdSchema.nullable().optional(),
  enabled: z.boolean().optional(),
});

/** POST /account/delete: the selected accounts (at least one). */
export const AccountDeleteSchema = z.object({ accIds: IdListSchema });
/** GET /account/reset/password/{accId}: answers a new random password (shown once to the administrator). */
export const ResetPasswordAnswerSchema = z.object({ password: z.string() });
/** GET /account/updaterole/{accId}/{roleId} and /account/save/role/{personId}/{roleId}. */
export const AccountRoleParamsSchema = z.object({ a: IdSchema, b: IdSchema });

export const accountEndpoints = /* @__PURE__ */ defineEndpoints({
  'GET /account/info/{id}': {
    permission: 'authenticated',
    summary:
      'Account info (SPEC §3 "Session user"): company, role, personCompany. Own account, or any with system:account',
    params: IdParamsSchema,
    response: AccountInfoSchema,
  },
  'GET /account/update/language/{accId}/{lang}': {
    permission: 'authenticated',
    summary: 'Saves the language of an account (lang EN, ZH_CN or ZH_TW)',
    params: LanguageParamsSchema,
    response: z.null(),
  },
  'POST /account/checkpassword': {
    permission: 'authenticated',
    summary:
      'Changes the own password (objStr = old password); every other token of the account is revoked and a new one answered',
    body: CheckPasswordSchema,
    response: CheckPasswordAnswerSchema,
  },
  'POST /account/forget/password': {
    permission: 'public',
    summary:
      'Mails a 6-digit code (valid 5 minutes) to the account with this e-mail. Answers the same whether or not the e-mail is known',
    body: ForgetPasswordSchema,
    response: z.null(),
  },
  'POST /account/check/forgetpwd/code': {
    permission: 'public',
    summary: 'Checks a forgot-password code without using it up',
    body: ForgetPasswordCodeSchema,
    response: z.null(),
  },
  'POST /account/forgetpwd/reset': {
    permission: 'public',
    summary: 'Sets a new password with a valid code; every token of the account is revoked',
    body: ForgetPasswordResetSchema,
    response: z.null(),
  },
  'POST /account/page': {
    permission: 'system:account',
    summary: 'Accounts of the estate, paged (keyword on username and name, roleId)',
    body: AccountPageSchema,
    response: AccountPageAnswerSchema,
  },
  'POST /account/update': {
    permission: 'system:account',
    summary: 'Changes an account; without accId creates a staff account with its person',
    body: AccountUpdateSchema,
    response: z.object({ accId: z.number() }),
  },
  'POST /account/delete': {
    permission: 'system:account',
    summary: 'Deletes accounts of the estate (not the own one); their tokens are revoked',
    body: AccountDeleteSchema,
    response: z.null(),
  },
  'GET /account/reset/password/{id}': {
    permission: 'system:account',
    summary: 'Gives an account a new random password (answered once) and ends its sessions',
    params: IdParamsSchema,
    response: ResetPasswordAnswerSchema,
  },
  'GET /account/updaterole/{a}/{b}': {
    permission: 'system:account',
    summary: 'Gives account {a} the role {b}',
    params: AccountRoleParamsSchema,
    response: z.null(),
  },
  'GET /account/save/role/{a}/{b}': {
    permission: 'system:account',
    summary: 'Gives the account of person {a} the role {b}',
    params: AccountRoleParamsSchema,
    response: z.null(),
  },
  'POST /account/sessions/end/{id}': {
    permission: 'system:account',
    summary:
      "Ends every session of an account of the estate (a wall screen's self-renewing session, a lost device): its tokens are revoked at once on every api process and its open tabs are told and closed",
    params: IdParamsSchema,
    response: z.null(),
  },
});
