import { createHash } from 'node:crypto';
import type { ApiClient, Identity } from './api-client';

/** sha256 hex of a token: how a token is named between gateway instances (never the token itself). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Remembers who a token belongs to for a short while, so five tabs opening at once make one
 * api call, not five. A revoked token is forgotten at once (on every instance: see
 * PersonHubs.forgetToken); an expired one is never answered from memory.
 */
export class IdentityCache {
  /** By token hash. */
  private readonly entries = new Map<string, { identity: Promise<Identity | null>; expiresAt: number }>();

  constructor(
    private readonly api: ApiClient,
    private readonly ttlMs = 30_000,
  ) {}

  /**
   * The identity behind a token. `fresh`: ask the api again unless a lookup is already on its way
   * (a tab coming back after a break: its token may have been revoked meanwhile).
   */
  get(token: string, options: { fresh?: boolean } = {}): Promise<Identity | null> {
    const key = tokenHash(token);
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now && (!options.fresh || hit.expiresAt === Number.POSITIVE_INFINITY))
      return hit.identity;
    const identity = this.api.identify(token);
    // Until the answer arrives the lookup is shared even by fresh callers; then it is kept for ttlMs.
    const entry = { identity, expiresAt: Number.POSITIVE_INFINITY };
    this.entries.set(key, entry);
    identity.then(
      (id) => {
        if (this.entries.get(key) !== entry) return;
        // Refusals are not kept (the next handshake asks again), nor anything past the token's expiry.
        if (id === null) this.entries.delete(key);
        else entry.expiresAt = Math.min(Date.now() + this.ttlMs, id.expiresAt);
      },
      () => this.entries.get(key) === entry && this.entries.delete(key),
    );
    if (this.entries.size > 10_000) this.prune(now);
    return identity;
  }

  forget(token: string): void {
    this.forgetHash(tokenHash(token));
  }

  forgetHash(hash: string): void {
    this.entries.delete(hash);
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
