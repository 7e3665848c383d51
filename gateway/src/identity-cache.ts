import { hash } from 'node:crypto';
import type { ApiClient, Identity } from './api-client';

/** sha256 hex of a token: how a token is named between gateway instances (never the token itself). */
export function tokenHash(token: string): string {
  // One call, no Hash object: every handshake hashes its token (README "Part 21").
  return hash('sha256', token, 'hex');
}

interface Entry {
  identity: Promise<Identity | null>;
  /** When the api answered (Date.now()); null while the lookup is on its way. */
  answeredAt: number | null;
  /** The access generation when it was asked (see `accessChanged`). */
  askedAt: number;
  /** Whose it is, once answered. */
  personId?: number;
  /** The token was revoked while this lookup was on its way: whoever waits on it gets "not valid". */
  revoked?: boolean;
}

/** An identity and the access generation it was asked at (compare with `changedSince`). */
export interface AskedIdentity {
  identity: Identity | null;
  askedAt: number;
}

/** Persons whose last access change is remembered at most (oldest out; only recent ones matter). */
const CHANGES_KEPT = 10_000;
/** Lookups that raced with an access change are asked again at most this often in a row. */
const STALE_RETRIES = 3;

/**
 * Remembers who a token belongs to, so five tabs opening at once make one api call, not five.
 * Callers say how old an answer they accept: a handshake only a very recent one (a token revoked
 * at the api stops opening tabs at once), a tab coming back or the periodic check none. A revoked
 * token is forgotten at once (on every instance: see PersonHubs.forgetToken); an expired one is
 * never answered from memory.
 *
 * Access changes (issue 30) count as generations: an answer asked before the person's last
 * access change reached this instance is never given (it may hold the old permissions), and a
 * caller that holds an answer can ask `changedSince` whether a change arrived after it was asked.
 */
export class IdentityCache {
  /** By token hash. */
  private readonly entries = new Map<string, Entry>();
  /** The access generation: raised by every access change this instance hears of. */
  private generation = 0;
  /** The generation of each person's last access change. */
  private readonly changedAt = new Map<number, number>();
  /** The newest generation among the persons no longer remembered: older answers count as stale. */
  private forgottenUpTo = 0;

  constructor(
    private readonly api: ApiClient,
    private readonly ttlMs = 30_000,
  ) {}

  /**
   * The identity behind a token. An answer older than `maxAgeMs` (default: the cache's lifetime)
   * is asked again; a lookup already on its way is always shared.
   */
  async get(token: string, maxAgeMs = this.ttlMs): Promise<Identity | null> {
    return (await this.lookup(token, maxAgeMs)).identity;
  }

  /**
   * `get`, with the access generation the answer was asked at: an answer asked before an access
   * change of its person that this instance heard of is asked again.
   */
  async lookup(token: string, maxAgeMs = this.ttlMs): Promise<AskedIdentity> {
    const key = tokenHash(token);
    for (let attempt = 0; ; attempt++) {
      const entry = this.entry(key, token, maxAgeMs);
      // Coalesced: every tab of the token waits on the one lookup (and its turn at the api).
      const answer = await entry.identity;
      const identity = entry.revoked ? null : answer;
      if (!identity || !this.changedSince(identity.personId, entry.askedAt) || attempt >= STALE_RETRIES)
        return { identity, askedAt: entry.askedAt };
      if (this.entries.get(key) === entry) this.entries.delete(key);
    }
  }

  private entry(key: string, token: string, maxAgeMs: number): Entry {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.answeredAt === null) return hit;
    if (
      hit &&
      hit.answeredAt !== null &&
      now - hit.answeredAt <= Math.min(maxAgeMs, this.ttlMs) &&
      (hit.personId === undefined || !this.changedSince(hit.personId, hit.askedAt))
    )
      return hit;
    const entry: Entry = { identity: this.api.identify(token), answeredAt: null, askedAt: this.generation };
    this.entries.set(key, entry);
    entry.identity.then(
      (id) => {
        if (this.entries.get(key) !== entry) return;
        // Refusals are not kept (the next handshake asks again), nor anything past the token's expiry.
        if (id === null || id.expiresAt <= Date.now()) this.entries.delete(key);
        else {
          entry.answeredAt = Date.now();
          entry.personId = id.personId;
        }
      },
      () => this.entries.get(key) === entry && this.entries.delete(key),
    );
    if (this.entries.size > 10_000) this.prune(now);
    return entry;
  }

  /**
   * The person's access changed (the api's `access` push reached this instance): every answer
   * about them asked until now is stale. Answers the new generation.
   */
  accessChanged(personId: number): number {
    this.generation++;
    this.changedAt.delete(personId);
    this.changedAt.set(personId, this.generation);
    if (this.changedAt.size > CHANGES_KEPT) {
      const [oldest, at] = this.changedAt.entries().next().value as [number, number];
      this.changedAt.delete(oldest);
      this.forgottenUpTo = Math.max(this.forgottenUpTo, at);
    }
    return this.generation;
  }

  /** True when an access change of the person reached this instance after generation `askedAt`. */
  changedSince(personId: number, askedAt: number): boolean {
    return (this.changedAt.get(personId) ?? this.forgottenUpTo) > askedAt;
  }

  forget(token: string): void {
    this.forgetHash(tokenHash(token));
  }

  forgetHash(hash: string): void {
    const entry = this.entries.get(hash);
    // A lookup still on its way may have been answered before the revocation reached the api.
    if (entry) entry.revoked = true;
    this.entries.delete(hash);
  }

  /** Lookups on their way or remembered (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries)
      if (entry.answeredAt !== null && now - entry.answeredAt > this.ttlMs) this.entries.delete(key);
  }
}
