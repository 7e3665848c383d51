import { hash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, ne } from 'drizzle-orm';
import { PERMISSIONS, isAdminRole, isWallOnly } from '@pm/shared';
import type { Db, DbOrTx } from '../../db/open-database';
import { account, company, oauthToken, sysMenu, sysRole, sysRoleMenu } from '../../db/schema';
import type { Caller } from '../../http/caller';
import type { EventBus } from '../realtime/event-bus';

/** A verified bearer token: the caller plus when the token expires (epoch ms). */
export interface VerifiedCaller extends Caller {
  expiresAt: number;
  /** The account's sign-in name (GET /auth/current/user answers it without a query). */
  username?: string;
  /**
   * A wall screen's session (an account holding only wall:view): it renews itself while in use,
   * where a staff token ends at its TTL ("Wall sessions" in the README).
   */
  renews?: boolean;
}

/** A change of whose access to drop from the caches: these accounts, or (null) everyone's. */
export interface AccessChange {
  accountIds: number[] | null;
}

/**
 * How long a verified token is trusted without asking the database again. Every change that
 * ends or alters access drops it at once (sign-out, revocation, `invalidateAccess`, on every api
 * process through the real-time bus); this bound only limits the life of a change made some
 * other way (by hand in the database, or a missed notification).
 */
const CACHE_MS = 30_000;
/** Tokens kept verified at most (oldest first out): about 1 KB each. */
const CACHE_ENTRIES = 50_000;

interface Cached {
  caller: VerifiedCaller;
  /** Epoch ms after which the database is asked again. */
  until: number;
}

/** Called with the hashes (and, when known, the raw value) of tokens that were just revoked. */
export type RevokeListener = (revoked: { tokenHash: string; token?: string }[]) => void;

/**
 * SHA-256 hex of a raw token; the only form a token is stored in (same as realtime's hashToken).
 * The one-shot `crypto.hash` (no Hash object per call): about half the CPU, paid on every call (issue 34).
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Permission codes of a role: every code for ADMIN, otherwise the non-empty perms of its menus. */
export async function loadRolePermissions(db: DbOrTx, roleId: number | null, roleValue: string): Promise<Set<string>> {
  if (isAdminRole(roleValue)) return new Set(PERMISSIONS);
  if (roleId === null) return new Set();
  const rows = await db
    .select({ perms: sysMenu.perms })
    .from(sysRoleMenu)
    .innerJoin(sysMenu, eq(sysMenu.id, sysRoleMenu.menuId))
    .where(eq(sysRoleMenu.roleId, roleId));
  return new Set(rows.map((r) => r.perms).filter((p) => p !== ''));
}

/**
 * Bearer tokens (SPEC §7): 256 random bits, stored only as hashes, with an expiry; revoked by
 * sign-out and by a password change. The realtime channel verifies its upgrades with
 * `verify` and closes revoked tokens' sockets through `onRevoke`.
 */
export class TokenService {
  private listeners: RevokeListener[] = [];
  /** Verified tokens by hash (the raw token is never kept), and each account's hashes. */
  private readonly cache = new Map<string, Cached>();
  /**
   * The SHA-256 of raw tokens seen lately (issue 34: hashing each call's token was 2.5 % of the
   * api's busy time on its cheapest calls). Only a memo of a pure function: whether a token is
   * valid is still the cache's and the database's answer, dropped by hash on any revocation.
   */
  private readonly hashes = new Map<string, string>();

  /** hashToken, remembered for the tokens of the last calls. */
  private hashOf(token: string): string {
    let tokenHash = this.hashes.get(token);
    if (tokenHash === undefined) {
      if (this.hashes.size >= CACHE_ENTRIES) this.hashes.clear();
      this.hashes.set(token, (tokenHash = hashToken(token)));
    }
    return tokenHash;
  }
  private readonly hashesOf = new Map<number, Set<string>>();
  /** Bumped by every drop: a verification that raced with one does not fill the cache. */
  private generation = 0;
  /** Renewals on their way, by token hash: calls arriving together renew once. */
  private readonly renewing = new Map<string, Promise<VerifiedCaller | null>>();
  /** Tells the other api processes of an access change (the real-time bus; set by server.ts). */
  private announce: ((change: AccessChange) => Promise<void>) | null = null;

  constructor(
    private readonly db: Db,
    private readonly ttlSeconds: number,
  ) {}

  onRevoke(listener: RevokeListener): void {
    this.listeners.push(listener);
  }

  /** How `invalidateAccess` reaches the other api processes (server.ts: the real-time bus). */
  announceAccessChanges(announce: (change: AccessChange) => Promise<void>): void {
    this.announce = announce;
  }

  /**
   * THE entry point for any change of who may do what: call it (after the change is committed)
   * when accounts' roles, permissions, enabled state, estate or name change, or with no argument
   * when a role's menus or a company's settings change everyone's. Every api process forgets
   * those accounts' verified tokens at once, so their next call is checked against the database.
   */
  async invalidateAccess(accountIds?: number[]): Promise<void> {
    const change = { accountIds: accountIds ?? null };
    this.forgetAccess(change);
    await this.announce?.(change);
  }

  /** Drops cached tokens of an access change (from this process or another one, through the bus). */
  forgetAccess(change: AccessChange): void {
    this.generation++;
    if (change.accountIds === null) {
      this.cache.clear();
      this.hashesOf.clear();
      return;
    }
    for (const id of change.accountIds) {
      for (const hash of this.hashesOf.get(id) ?? []) this.cache.delete(hash);
      this.hashesOf.delete(id);
    }
  }

  /** Drops one cached token (revoked here or on another api process). */
  forgetToken(tokenHash: string): void {
    this.generation++;
    const cached = this.cache.get(tokenHash);
    if (!cached) return;
    this.cache.delete(tokenHash);
    this.hashesOf.get(cached.caller.accountId)?.delete(tokenHash);
  }

  private remember(tokenHash: string, caller: VerifiedCaller): void {
    if (this.cache.size >= CACHE_ENTRIES) {
      const oldest = this.cache.keys().next().value as string;
      this.forgetToken(oldest);
    }
    this.cache.set(tokenHash, { caller, until: Date.now() + CACHE_MS });
    let hashes = this.hashesOf.get(caller.accountId);
    if (!hashes) this.hashesOf.set(caller.accountId, (hashes = new Set()));
    hashes.add(tokenHash);
  }

  async issue(accountId: number): Promise<{ accessToken: string; expiresIn: number; tokenId: number }> {
    const accessToken = randomBytes(32).toString('base64url');
    const [row] = await this.db
      .insert(oauthToken)
      .values({
        tokenHash: hashToken(accessToken),
        accountId,
        expiresAt: new Date(Date.now() + this.ttlSeconds * 1000),
      })
      .returning({ id: oauthToken.id });
    return { accessToken, expiresIn: this.ttlSeconds, tokenId: row.id };
  }

  /**
   * The caller a raw token belongs to; null when unknown, revoked, expired or the account is
   * disabled. A wall screen's token past half its life is renewed here (sliding expiry): every
   * call of a screen in use, and the gateway's checks of its open tabs, keep it alive.
   */
  /**
   * `verify`'s answer when it needs no database and no renewal (a token verified lately, not
   * revoked since, not expired): at once, without a promise (issue 34: the cheapest calls). Else
   * undefined: ask `verify`.
   */
  verifiedNow(token: string): VerifiedCaller | undefined {
    if (!token || token.length > 200) return undefined;
    const cached = this.cache.get(this.hashOf(token));
    const now = Date.now();
    if (!cached || !(cached.caller.expiresAt > now && cached.until > now) || cached.caller.renews) return undefined;
    return cached.caller;
  }

  async verify(token: string): Promise<VerifiedCaller | null> {
    if (!token || token.length > 200) return null;
    const tokenHash = this.hashOf(token);
    const now = Date.now();
    const cached = this.cache.get(tokenHash);
    // An entry past its expiry asks the database again: another api process may have renewed it.
    if (cached && cached.caller.expiresAt > now && cached.until > now) return this.renewIfDue(tokenHash, cached.caller);
    const generation = this.generation;
    const caller = await this.load(tokenHash);
    if (cached) this.forgetToken(tokenHash);
    if (caller && generation === this.generation) this.remember(tokenHash, caller);
    return caller && this.renewIfDue(tokenHash, caller);
  }

  /**
   * `verify` of many tokens (the gateway's batch lookup, POST /realtime/identities, which anyone may
   * call): the tokens neither cached nor stored are found by ONE query for the lot, so a batch of
   * made-up tokens costs what one lookup costs, never a query each. Null for each such token.
   */
  async verifyMany(tokens: string[]): Promise<(VerifiedCaller | null)[]> {
    const now = Date.now();
    const unknown = new Set<string>();
    for (const t of tokens) {
      if (!t || t.length > 200) continue;
      const cached = this.cache.get(hashToken(t));
      if (!(cached && cached.caller.expiresAt > now && cached.until > now)) unknown.add(hashToken(t));
    }
    const stored = new Set<string>();
    if (unknown.size > 0) {
      const rows = await this.db
        .select({ tokenHash: oauthToken.tokenHash })
        .from(oauthToken)
        .where(and(inArray(oauthToken.tokenHash, [...unknown]), isNull(oauthToken.revokedAt)));
      for (const r of rows) stored.add(r.tokenHash);
    }
    const answers = new Map<string, Promise<VerifiedCaller | null>>();
    return Promise.all(
      tokens.map((t) => {
        if (!t || t.length > 200) return null;
        const tokenHash = hashToken(t);
        if (unknown.has(tokenHash) && !stored.has(tokenHash)) return null;
        let answer = answers.get(t);
        if (!answer) answers.set(t, (answer = this.verify(t)));
        return answer;
      }),
    );
  }

  /** A renewing session past half its life gets a full TTL again (only while it is not revoked). */
  private async renewIfDue(tokenHash: string, caller: VerifiedCaller): Promise<VerifiedCaller | null> {
    if (!caller.renews) return caller;
    if (caller.expiresAt - Date.now() > (this.ttlSeconds * 1000) / 2) return caller;
    let renewal = this.renewing.get(tokenHash);
    if (!renewal) {
      renewal = this.renew(tokenHash, caller).finally(() => this.renewing.delete(tokenHash));
      this.renewing.set(tokenHash, renewal);
    }
    return renewal;
  }

  private async renew(tokenHash: string, caller: VerifiedCaller): Promise<VerifiedCaller | null> {
    const generation = this.generation;
    const [row] = await this.db
      .update(oauthToken)
      .set({ expiresAt: new Date(Date.now() + this.ttlSeconds * 1000) })
      .where(and(eq(oauthToken.id, caller.tokenId), isNull(oauthToken.revokedAt), gt(oauthToken.expiresAt, new Date())))
      .returning({ expiresAt: oauthToken.expiresAt });
    // Revoked or expired meanwhile: refused, as the database now says.
    if (!row) {
      this.forgetToken(tokenHash);
      return null;
    }
    const renewed = { ...caller, expiresAt: row.expiresAt.getTime() };
    const entry = this.cache.get(tokenHash);
    if (entry && generation === this.generation) entry.caller = renewed;
    return renewed;
  }

  /** The database's answer for a token hash (two queries: the token with its account, and the role's permissions). */
  private async load(tokenHash: string): Promise<VerifiedCaller | null> {
    const [row] = await this.db
      .select({
        tokenId: oauthToken.id,
        expiresAt: oauthToken.expiresAt,
        accountId: account.id,
        personId: account.personId,
        companyId: account.companyId,
        housingEstateId: account.housingEstateId,
        roleId: account.roleId,
        kind: account.kind,
        roleValue: sysRole.roleValue,
        companyType: company.companyType,
        username: account.username,
      })
      .from(oauthToken)
      .innerJoin(account, eq(account.id, oauthToken.accountId))
      .innerJoin(company, eq(company.id, account.companyId))
      .leftJoin(sysRole, eq(sysRole.id, account.roleId))
      .where(
        and(
          eq(oauthToken.tokenHash, tokenHash),
          isNull(oauthToken.revokedAt),
          gt(oauthToken.expiresAt, new Date()),
          eq(account.enabled, true),
        ),
      )
      .limit(1);
    if (!row) return null;
    // Residents never hold console permissions, whatever role an account row was once given.
    if (row.kind === 'resident')
      return { ...row, roleId: null, roleValue: '', expiresAt: row.expiresAt.getTime(), perms: new Set() };
    const roleValue = row.roleValue ?? '';
    const perms = await loadRolePermissions(this.db, row.roleId, roleValue);
    return {
      ...row,
      roleValue,
      expiresAt: row.expiresAt.getTime(),
      perms,
      renews: isWallOnly([...perms], roleValue),
    };
  }

  /** Sign-out: revokes this one token. */
  async revoke(token: string): Promise<void> {
    const tokenHash = hashToken(token);
    await this.db.update(oauthToken).set({ revokedAt: new Date() }).where(eq(oauthToken.tokenHash, tokenHash));
    this.forgetToken(tokenHash);
    this.emit([{ tokenHash, token }]);
  }

  /** Revokes every live token of an account except one (password change), or all (exceptTokenId null). */
  async revokeAccount(accountId: number, exceptTokenId: number | null): Promise<void> {
    const conditions = [eq(oauthToken.accountId, accountId), isNull(oauthToken.revokedAt)];
    if (exceptTokenId !== null) conditions.push(ne(oauthToken.id, exceptTokenId));
    const rows = await this.db
      .update(oauthToken)
      .set({ revokedAt: new Date() })
      .where(and(...conditions))
      .returning({ tokenHash: oauthToken.tokenHash });
    this.emit(rows);
  }

  /** Revokes every token of several accounts (deleted, disabled or role removed). */
  async revokeAccounts(accountIds: number[]): Promise<void> {
    if (accountIds.length === 0) return;
    const rows = await this.db
      .update(oauthToken)
      .set({ revokedAt: new Date() })
      .where(and(inArray(oauthToken.accountId, accountIds), isNull(oauthToken.revokedAt)))
      .returning({ tokenHash: oauthToken.tokenHash });
    this.emit(rows);
  }

  private emit(revoked: { tokenHash: string; token?: string }[]): void {
    for (const r of revoked) this.forgetToken(r.tokenHash);
    if (revoked.length === 0) return;
    for (const l of this.listeners) l(revoked);
  }
}

/**
 * The real-time bus, with each instance's copy of a revocation or access change also dropping
 * the tokens its TokenService has cached; access changes concern only the cache and stop here.
 */
export function tokenCacheBus(bus: EventBus, tokens: TokenService): EventBus {
  return {
    publish: (envelope) => bus.publish(envelope),
    onEnvelope: (handler) =>
      bus.onEnvelope((envelope) => {
        if (envelope.kind === 'access') return tokens.forgetAccess(envelope);
        if (envelope.kind === 'revoke') tokens.forgetToken(envelope.tokenHash);
        handler(envelope);
      }),
    close: () => bus.close(),
  };
}
