import type { ApiClient, Identity } from './api-client';

/**
 * Remembers who a token belongs to for a short while, so five tabs opening at once make one
 * round of api calls, not five. A revoked token is forgotten at once.
 */
export class IdentityCache {
  private readonly entries = new Map<string, { identity: Promise<Identity | null>; expiresAt: number }>();

  constructor(
    private readonly api: ApiClient,
    private readonly ttlMs = 30_000,
  ) {}

  get(token: string): Promise<Identity | null> {
    const now = Date.now();
    const hit = this.entries.get(token);
    if (hit && hit.expiresAt > now) return hit.identity;
    const identity = this.api.identify(token);
    this.entries.set(token, { identity, expiresAt: now + this.ttlMs });
    // Failures (api down) and refusals are not cached: the next handshake asks again.
    identity.then(
      (id) => id === null && this.entries.delete(token),
      () => this.entries.delete(token),
    );
    if (this.entries.size > 10_000) this.prune(now);
    return identity;
  }

  forget(token: string): void {
    this.entries.delete(token);
  }

  private prune(now: number): void {
    for (const [token, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(token);
  }
}
