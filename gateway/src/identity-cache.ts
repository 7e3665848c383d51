import { createHash } from 'node:crypto';
import type { ApiClient, Identity } from './api-client';

/** sha256 hex of a token: how a token is named between gateway instances (never the token itself). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

interface Entry {
  identity: Promise<Identity | null>;
  /** When the api answered (Date.now()); null while the lookup is on its way. */
  answeredAt: number | null;
}

/**
 * Remembers who a token belongs to, so five tabs opening at once make one api call, not five.
 * Callers say how old an answer they accept: a handshake only a very recent one (a token revoked
 * at the api stops opening tabs at once), a tab coming back or the periodic check none. A revoked
 * token is forgotten at once (on every instance: see PersonHubs.forgetToken); an expired one is
 * never answered from memory.
 */
export class IdentityCache {
  /** By token hash. */
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly api: ApiClient,
    private readonly ttlMs = 30_000,
  ) {}

  /**
   * The identity behind a token. An answer older than `maxAgeMs` (default: the cache's lifetime)
   * is asked again; a lookup already on its way is always shared.
   */
  get(token: string, maxAgeMs = this.ttlMs): Promise<Identity | null> {
    const key = tokenHash(token);
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && (hit.answeredAt === null || now - hit.answeredAt <= Math.min(maxAgeMs, this.ttlMs))) return hit.identity;
    const entry: Entry = { identity: this.api.identify(token), answeredAt: null };
    this.entries.set(key, entry);
    entry.identity.then(
      (id) => {
        if (this.entries.get(key) !== entry) return;
        // Refusals are not kept (the next handshake asks again), nor anything past the token's expiry.
        if (id === null || id.expiresAt <= Date.now()) this.entries.delete(key);
        else entry.answeredAt = Date.now();
      },
      () => this.entries.get(key) === entry && this.entries.delete(key),
    );
    if (this.entries.size > 10_000) this.prune(now);
    return entry.identity;
  }

  forget(token: string): void {
    this.forgetHash(tokenHash(token));
  }

  forgetHash(hash: string): void {
    this.entries.delete(hash);
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries)
      if (entry.answeredAt !== null && now - entry.answeredAt > this.ttlMs) this.entries.delete(key);
  }
}
