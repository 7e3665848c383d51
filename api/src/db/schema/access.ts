import { bigint, boolean, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, id, tenantColumns, time } from './columns';

/**
 * A sign-in account. kind 'staff' signs in to the console and needs a role; kind 'resident'
 * uses the resident API (/app/*) and has no role. language: en | zh-CN | zh-TW.
 */
export const account = pgTable(
  'account',
  {
    id: id(),
    ...tenantColumns(),
    personId: integer().notNull(),
    username: text().notNull(),
    email: text(),
    passwordHash: text().notNull(),
    roleId: integer(),
    kind: text().$type<'staff' | 'resident'>().notNull().default('staff'),
    language: text().notNull().default('en'),
    enabled: boolean().notNull().default(true),
    createdAt: createdAt(),
    updatedAt: time(),
    /**
     * What the account tab's keyword is matched against: the account name and the person's name,
     * lower-cased (`account_search_text`), one trigram-indexed column. Kept by triggers of account
     * and person (migration account_search_triggers), never written by the api.
     */
    search: text(),
  },
  (t) => [
    // Unique within a company only (README "Sign-in limits and account names"): whether a name is
    // taken never depends on another company's accounts.
    uniqueIndex().on(t.companyId, t.username),
    index().on(t.username, t.id),
    index().on(t.personId),
    index().on(t.housingEstateId, t.kind, t.id),
    index().on(t.email),
  ],
);

/** A role of one estate; roleValue ADMIN (containment) has every permission. */
export const sysRole = pgTable(
  'sys_role',
  {
    id: id(),
    ...tenantColumns(),
    roleName: text().notNull(),
    roleValue: text().notNull(),
    remark: text(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.housingEstateId, t.id)],
);

/** The menu tree: one row per route of shared LAYOUT_ROUTES; perms is its permission code ('' = none). Global. */
export const sysMenu = pgTable(
  'sys_menu',
  {
    id: id(),
    parentId: integer(),
    name: text().notNull(),
    path: text().notNull(),
    perms: text().notNull().default(''),
    hidden: boolean().notNull().default(false),
    icon: text(),
    /** 1 directory / page from the route table, 2 a button-level permission. */
    menuType: smallint().notNull().default(1),
    sort: integer().notNull().default(0),
  },
  (t) => [uniqueIndex().on(t.path, t.perms)],
);

export const sysRoleMenu = pgTable(
  'sys_role_menu',
  {
    roleId: integer().notNull(),
    menuId: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] }), index().on(t.menuId)],
);

/** Bearer tokens, stored only as SHA-256 hashes of the random token. */
export const oauthToken = pgTable(
  'oauth_token',
  {
    id: id(),
    tokenHash: text().notNull(),
    accountId: integer().notNull(),
    expiresAt: time().notNull(),
    revokedAt: time(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex().on(t.tokenHash), index().on(t.accountId)],
);

/**
 * Failed sign-ins, counted per account name and per address for the limiter and the captcha.
 * device: set when the attempt carried a valid known-device cookie of the account (device-trust.ts);
 * such failures count only against that device's own allowance.
 */
export const loginFailure = pgTable(
  'login_failure',
  {
    id: id(),
    username: text().notNull(),
    address: text().notNull(),
    device: text(),
    at: createdAt(),
  },
  (t) => [index().on(t.username, t.at), index().on(t.address, t.at), index().on(t.device, t.at)],
);

/** Picture-drag captchas: the gap's x offset, single use, short-lived. */
export const captcha = pgTable('captcha', {
  id: text().primaryKey(),
  x: integer().notNull(),
  expiresAt: time().notNull(),
  /** Set once a login carried it (solved or not): a captcha is never used twice. */
  usedAt: time(),
});

/** Forgot-password codes (6 digits, 5 minutes), stored hashed. */
export const passwordResetCode = pgTable(
  'password_reset_code',
  {
    id: id(),
    accountId: integer().notNull(),
    codeHash: text().notNull(),
    expiresAt: time().notNull(),
    attempts: integer().notNull().default(0),
    usedAt: time(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.accountId, t.createdAt.desc().nullsFirst())],
);

/** Mail that was sent or, without SMTP, kept here (and logged). */
export const mailOutbox = pgTable('mail_outbox', {
  id: id(),
  to: text().notNull(),
  subject: text().notNull(),
  text: text().notNull(),
  status: text().$type<'stored' | 'sent' | 'failed'>().notNull(),
  error: text(),
  createdAt: createdAt(),
  sentAt: time(),
});

/** An upload stored by the upload service (path relative to the upload root). */
export const uploadFile = pgTable(
  'upload_file',
  {
    id: id(),
    companyId: integer(),
    housingEstateId: integer(),
    personId: integer(),
    kind: text().notNull(),
    path: text().notNull(),
    thumbnailPath: text(),
    contentType: text().notNull(),
    size: integer().notNull(),
    createdAt: createdAt(),
    /**
     * When a saved record first referenced it (a call answered 200 whose body names it). Null: a
     * draft's upload nobody saved; pruned with its files after RETENTION_DRAFT_UPLOAD_DAYS.
     */
    claimedAt: time(),
  },
  (t) => [
    uniqueIndex().on(t.path),
    index().on(t.personId, t.createdAt.desc().nullsFirst()),
    index('upload_file_unclaimed_idx')
      .on(t.createdAt)
      .where(sql`claimed_at is null`),
  ],
);

/**
 * What an account used, for the per-account limits of modules/quota (invite-code joins and
 * wrong codes, upload bytes): one row per use, counted over a sliding window and deleted once
 * older than the longest window. Counted in the database so every api instance sees the same.
 */
export const accountUsage = pgTable(
  'account_usage',
  {
    id: id(),
    accountId: integer().notNull(),
    kind: text().notNull(),
    amount: bigint({ mode: 'number' }).notNull(),
    at: time().notNull().defaultNow(),
  },
  (t) => [index().on(t.accountId, t.kind, t.at)],
);
