import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, ne } from 'drizzle-orm';
import { PERMISSIONS, isAdminRole } from '@pm/shared';
import type { Db, DbOrTx } from '../../db/open-database';
import { account, company, oauthToken, sysMenu, sysRole, sysRoleMenu } from '../../db/schema';
import type { Caller } from '../../http/caller';

/** A verified bearer token: the caller plus when the token expires (epoch ms). */
export interface VerifiedCaller extends Caller {
  expiresAt: number;
}

/** Called with the hashes (and, when known, the raw value) of tokens that were just revoked. */
export type RevokeListener = (revoked: { tokenHash: string; token?: string }[]) => void;

/** SHA-256 hex of a raw token; the only form a token is stored in (same as realtime's hashToken). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
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

  constructor(
    private readonly db: Db,
    private readonly ttlSeconds: number,
  ) {}

  onRevoke(listener: RevokeListener): void {
    this.listeners.push(listener);
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

  /** The caller a raw token belongs to; null when unknown, revoked, expired or the account is disabled. */
  async verify(token: string): Promise<VerifiedCaller | null> {
    if (!token || token.length > 200) return null;
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
      })
      .from(oauthToken)
      .innerJoin(account, eq(account.id, oauthToken.accountId))
      .innerJoin(company, eq(company.id, account.companyId))
      .leftJoin(sysRole, eq(sysRole.id, account.roleId))
      .where(
        and(
          eq(oauthToken.tokenHash, hashToken(token)),
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
    return {
      ...row,
      roleValue,
      expiresAt: row.expiresAt.getTime(),
      perms: await loadRolePermissions(this.db, row.roleId, roleValue),
    };
  }

  /** Sign-out: revokes this one token. */
  async revoke(token: string): Promise<void> {
    const tokenHash = hashToken(token);
    await this.db.update(oauthToken).set({ revokedAt: new Date() }).where(eq(oauthToken.tokenHash, tokenHash));
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
    if (revoked.length === 0) return;
    for (const l of this.listeners) l(revoked);
  }
}
