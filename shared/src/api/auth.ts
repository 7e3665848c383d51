import { z } from 'zod';
import { defineEndpoints } from './endpoint';
import { intSchema } from './common';

/**
 * POST /oauth/token form (application/x-www-form-urlencoded). After 3 failed logins the form
 * must also carry a solved captcha: captchaId from GET /captcha/puzzle and captchaX, the
 * dragged offset of the piece in pixels.
 */
export const OAuthTokenFormSchema = z.object({
  grant_type: z.string().max(50),
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(128),
  captchaId: z.string().max(64).optional(),
  captchaX: intSchema(-1000, 10_000).optional(),
});
export type OAuthTokenForm = z.infer<typeof OAuthTokenFormSchema>;

/** The OAuth2 answer (not an envelope). */
export const OAuthTokenAnswerSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number(),
});
export type OAuthTokenAnswer = z.infer<typeof OAuthTokenAnswerSchema>;

/** GET /captcha/puzzle: a background with a gap and the piece (PNG data URLs); y and width place the piece. */
export const CaptchaPuzzleSchema = z.object({
  captchaId: z.string(),
  background: z.string(),
  piece: z.string(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  pieceSize: z.number(),
  expiresIn: z.number(),
});
export type CaptchaPuzzle = z.infer<typeof CaptchaPuzzleSchema>;

/** POST /captcha/check: tells whether an offset solves the puzzle, without using it up (the login still needs it). */
export const CaptchaCheckSchema = z.object({
  captchaId: z.string().min(1).max(64),
  captchaX: intSchema(-1000, 10_000),
});
export const CaptchaCheckAnswerSchema = z.object({ passed: z.boolean() });

/** GET /auth/current/user */
export const CurrentUserSchema = z.object({
  accountInfo: z.object({ accId: z.number(), personId: z.number(), username: z.string() }),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

export const authEndpoints = /* @__PURE__ */ defineEndpoints({
  'POST /oauth/token': {
    permission: 'public',
    summary:
      'Password grant (form, HTTP Basic client). Answers OAuth2 JSON, not an envelope. Errors: 400, 401 bad client/credentials, 403 no role, 428 captcha required, 429 rate limited.',
    bodyType: 'form',
    formBody: OAuthTokenFormSchema,
    answer: 'raw',
    response: OAuthTokenAnswerSchema,
  },
  'POST /auth/signOut': {
    permission: 'authenticated',
    summary: 'Revokes the bearer token (its real-time connections close with 4001)',
    response: z.null(),
  },
  'GET /auth/current/user': {
    permission: 'authenticated',
    summary: 'The signed-in account (data.accountInfo.accId)',
    response: CurrentUserSchema,
  },
  'GET /captcha/puzzle': {
    permission: 'public',
    summary:
      'A picture-drag captcha: background with a gap and the piece (PNG data URLs); drag the piece to the gap and send captchaX with the login. 429 after 30 a minute from one address',
    response: CaptchaPuzzleSchema,
  },
  'POST /captcha/check': {
    permission: 'public',
    summary: 'Checks a dragged offset (SPEC §5 "Verification passed/failed"); a miss uses the puzzle up',
    body: CaptchaCheckSchema,
    response: CaptchaCheckAnswerSchema,
  },
});
