import {
  HTTP_TIMEOUT_MS,
  IDENTITY_BATCH_MAX,
  LiveIdentitiesSchema,
  type LiveIdentity,
  endpoints,
  fillPath,
  type EndpointAnswer,
  type EndpointKey,
  type Endpoints,
  type Envelope,
} from '@pm/shared';
import { Pool } from 'undici';
import { ApiGate, type ApiCallKind } from './api-gate';
import { ApiTargets, neverConnected } from './api-targets';
import type { Counters } from './live-state';

/** Who a bearer token belongs to, what they may see, and until when. */
export interface Identity {
  personId: number;
  accId: number;
  roleValue: string;
  perms: ReadonlySet<string>;
  /** Epoch ms: the token's tabs are dropped then, unless the session renews itself. */
  expiresAt: number;
  /** A wall screen's session: asked about again before `expiresAt`, which the api moves while it is in use. */
  renews: boolean;
}

/** The api could not be reached or answered with a fault (as opposed to "token not valid"). */
export class ApiUnavailableError extends Error {
  /** `away`: every api refused the connection (none is there), as opposed to slow or faulty. */
  constructor(
    message: string,
    readonly away = false,
  ) {
    super(message);
  }
}

/** An api's answer to one of the gateway's own calls. */
interface ApiAnswer {
  status: number;
  json(): Promise<unknown>;
  discard(): Promise<void>;
}

/** Kept-alive connections per api for the gateway's own calls (at most ApiGate's in-flight calls use them at once). */
const API_CALL_CONNECTIONS = 32;

/** An identity lookup waiting to be sent (alone, or with others in one batch). */
interface WaitingLookup {
  token: string;
  resolve(identity: Identity | null): void;
  reject(err: unknown): void;
  /** Taken into a call: a refusal of its own turn no longer concerns it. */
  taken: boolean;
  /** Epoch ms after which its handshake is given up (socket.io's connect timeout): no call is made for it then. */
  deadline: number;
  /** Batch calls it was in that failed (it is sent again, in a smaller batch, while its deadline allows). */
  failures: number;
}

/**
 * A lookup's time from its handshake's start: socket.io closes a connection that has not joined
 * within 30 s (server.ts), so a lookup retried after a failed batch must be answered before that.
 */
export const IDENTIFY_DEADLINE_MS = 28_000;
/** What a batch call may take beyond the single call's timeout, per token in it (ms). */
export const IDENTIFY_MS_PER_TOKEN = 50;
/** A batch call given less time than this is not made: its lookups are refused (ms). */
const IDENTIFY_MIN_CALL_MS = 1_000;
/** A lookup whose batch calls failed this often is refused (502) rather than sent again. */
const IDENTIFY_MAX_FAILURES = 3;

function identityFrom(data: LiveIdentity): Identity {
  const { personId, accId, roleValue, perms, expiresAt, renews } = data;
  return {
    personId,
    accId,
    roleValue,
    perms: new Set(perms),
    expiresAt: Date.parse(expiresAt),
    renews: renews === true,
  };
}

/** The few api calls the gateway makes on a person's behalf (docs/internal-contract.md). */
export class ApiClient {
  /** The api processes, the gateway's own first (api-targets.ts). */
  readonly targets: ApiTargets;

  /**
   * How many of these calls (and upstream opens) run at once; the rest wait their turn, so that
   * thousands of tabs coming back do not flood the api (api-gate.ts).
   */
  readonly gate: ApiGate;

  constructor(
    api: string | ApiTargets,
    private readonly timeoutMs = HTTP_TIMEOUT_MS,
    gate: ApiGate = new ApiGate(),
  ) {
    this.targets = typeof api === 'string' ? new ApiTargets([api]) : api;
    this.gate = gate;
  }

  /** Where calls go now. */
  get baseUrl(): string {
    return this.targets.current();
  }

  /**
   * A GET on the api that is up, then on the next one whenever this one did not answer it: its
   * connection refused, cut or closed before an answer, no answer within `timeoutMs`, or an answer
   * 5xx (its database away, still starting). The gateway's own calls are reads (identity,
   * counters): any api can answer them and asking twice changes nothing. Only a refused connection
   * marks an api down here; the health checks decide the rest. The last api's answer or failure is
   * the call's.
   */
  private async readAny(
    pathAndQuery: string,
    token: string | null,
    body?: unknown,
    timeoutMs = this.timeoutMs,
  ): Promise<ApiAnswer> {
    const apis = this.targets.inOrder();
    let last: unknown;
    // No accept-encoding: the api answers these small JSON bodies uncompressed (fetch asked for
    // gzip, and unzipping every identity answer was 4 % of the gateway's CPU in a reconnect storm).
    const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const payload = body === undefined ? undefined : JSON.stringify(body);
    for (const [i, url] of apis.entries()) {
      const isLast = i === apis.length - 1;
      try {
        const { pool, basePath } = this.poolFor(url);
        const res = await pool.request({
          path: basePath + pathAndQuery,
          method: body === undefined ? 'GET' : 'POST',
          headers,
          body: payload,
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (res.statusCode < 500 || isLast)
          return {
            status: res.statusCode,
            json: () => res.body.json(),
            discard: () => res.body.dump(),
          };
        await res.body.dump();
        last = new Error(`answered ${res.statusCode}`);
      } catch (err) {
        last = err;
        if (neverConnected(err)) this.targets.markDown(url, 'connection refused');
      }
    }
    throw last;
  }

  /**
   * The kept-alive connections to one api (undici's Pool, as the proxy's): a reconnect storm's
   * identity lookups and counters reads went through `fetch`, whose Request, Response and web
   * streams per call cost more than the call (issue 34, README "Part 21").
   */
  private poolFor(url: string): { pool: Pool; basePath: string } {
    let entry = this.pools.get(url);
    if (!entry) {
      const target = new URL(url);
      entry = {
        pool: new Pool(target.origin, {
          connections: API_CALL_CONNECTIONS,
          keepAliveTimeout: 4_000,
          keepAliveMaxTimeout: 4_000,
          // The call's own signal bounds it (its timeout grows with a batch).
          headersTimeout: 0,
          bodyTimeout: 0,
        }),
        basePath: target.pathname.replace(/\/$/, ''),
      };
      this.pools.set(url, entry);
    }
    return entry;
  }
  private readonly pools = new Map<string, { pool: Pool; basePath: string }>();

  /** Closes the kept-alive connections to the api (the gateway is stopping). */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map(({ pool }) => pool.destroy().catch(() => undefined)));
  }

  /**
   * One GET declared in shared, on a person's behalf: `data` is checked against the declared
   * response (null when the status is not 200 or the answer does not match).
   */
  private call<K extends EndpointKey>(
    kind: ApiCallKind,
    key: K,
    token: string,
    input?: Record<string, unknown>,
  ): Promise<{ status: number; data: EndpointAnswer<Endpoints[K]> | null }> {
    // A full queue refuses with ApiBusyError (not an ApiUnavailableError: the api is up, only busy).
    return this.gate.run(kind, () => this.callNow(key, token, input));
  }

  private async callNow<K extends EndpointKey>(
    key: K,
    token: string,
    input?: Record<string, unknown>,
  ): Promise<{ status: number; data: EndpointAnswer<Endpoints[K]> | null }> {
    const endpoint = endpoints[key];
    if (endpoint.method !== 'GET') throw new Error(`${key}: the gateway's own calls are reads`);
    const { path, rest } = fillPath(endpoint, input);
    const query = new URLSearchParams(rest as Record<string, string>).toString();
    let res: ApiAnswer;
    try {
      res = await this.readAny(path + (query && `?${query}`), token);
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      throw new ApiUnavailableError(`api unreachable: ${(err as Error).message}${cause ? ` (${cause})` : ''}`);
    }
    const envelope = (await res.json().catch(() => null)) as Envelope<unknown> | null;
    const parsed = res.status === 200 ? endpoint.response.safeParse(envelope?.data) : null;
    return { status: res.status, data: parsed?.success ? (parsed.data as EndpointAnswer<Endpoints[K]>) : null };
  }

  /** Lookups waiting for a call (issue 34): whichever identity turn comes first sends them together. */
  private waitingLookups: WaitingLookup[] = [];
  /** The api answered the batch call 404 (an older api): one call per token from then on. */
  private batchUnsupported = false;
  /**
   * The most lookups one batch call takes now: IDENTITY_BATCH_MAX while the api answers in time,
   * halved by each batch that failed (timed out, 5xx, a bad answer) down to one, doubled again by
   * each batch answered within half its time. A slow api thus gets small calls it can answer.
   */
  private batchMax = IDENTITY_BATCH_MAX;

  /** The current batch size, and the batch calls that failed and were sent again (for tests and /metrics). */
  get batching(): { batchMax: number; retriedBatches: number } {
    return { batchMax: this.batchMax, retriedBatches: this.retriedBatches };
  }
  private retriedBatches = 0;

  /**
   * The person behind a token, or null when the api says the token is not (or no longer) valid.
   * Lookups that wait for a turn at the api (api-gate.ts) go together: a turn sends the lookups
   * waiting when it starts (up to `batchMax`) in one `POST /realtime/identities`. A lone lookup is
   * one `GET /realtime/identity`, as before.
   *
   * There are only as many turns as the waiting lookups need (one per `batchMax` of them), not one
   * per lookup (README "Part 35"): with one turn per lookup, thousands of turns queued at the gate
   * in a storm though a few batch calls would send every lookup, and the gate took that queue for
   * the api's backlog. It then refused handshakes whose lookups it would have sent at once, and told
   * their tabs to come back after that estimate: 18 s or more. A lookup beyond what the turns cover
   * when the gate refuses a turn (ApiBusyError) is refused with it, the newest first.
   *
   * A batch that fails without the api being away (a timeout, a 5xx, a bad answer: a slow api, not
   * a dead one) no longer refuses all its handshakes (README "Part 13"): its lookups go back to the
   * front of the waiting ones and are sent again in batches half the size, while their handshake's
   * time allows; the call's timeout grows with its batch.
   */
  identify(token: string): Promise<Identity | null> {
    return new Promise<Identity | null>((resolve, reject) => {
      const lookup: WaitingLookup = {
        token,
        resolve,
        reject,
        taken: false,
        deadline: Date.now() + IDENTIFY_DEADLINE_MS,
        failures: 0,
      };
      // The gate's bound on waiting lookups (it counts turns, and a turn takes up to batchMax of them).
      if (this.waitingLookups.length >= this.gate.limits.queued) {
        reject(this.gate.busy());
        return;
      }
      this.waitingLookups.push(lookup);
      this.coverWaitingLookups();
    });
  }

  /** Identity lookups waiting to be sent (for /metrics and tests). */
  get lookupsWaiting(): number {
    return this.waitingLookups.length;
  }

  /** Turns asked for at the gate that have not yet taken their lookups (the event loop's turn they wait for included). */
  private turnsToCome = 0;

  /** Asks for turns until those to come cover the waiting lookups (`batchMax` each). */
  private coverWaitingLookups(): void {
    while (this.turnsToCome * this.batchMax < this.waitingLookups.length) this.turn();
  }

  /** A turn at the api: it sends the lookups waiting when it starts. */
  private turn(): void {
    this.turnsToCome++;
    let took = false;
    this.gate
      .run('identity', () => {
        took = true;
        return this.sendLookups();
      })
      .catch((err: unknown) => {
        if (took) return;
        // Refused by the gate: the lookups the other turns do not cover are refused, the newest first.
        this.turnsToCome--;
        while (this.waitingLookups.length > this.turnsToCome * this.batchMax) {
          const lookup = this.waitingLookups.pop()!;
          lookup.taken = true;
          lookup.reject(err);
        }
      });
  }

  /** Sends the lookups waiting now (nothing when another turn took them). */
  private async sendLookups(): Promise<void> {
    // The lookups of every handshake read in this turn of the event loop go in one call: in a
    // reconnect storm many connections' CONNECT packets are read per turn, and with a free slot
    // each took its turn at once and went alone (README "Part 21").
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.turnsToCome--;
    const now = Date.now();
    // Lookups whose handshake is over by now are not sent: socket.io has closed their connection.
    const late = this.waitingLookups.filter((l) => l.deadline - now < IDENTIFY_MIN_CALL_MS);
    if (late.length > 0) {
      this.waitingLookups = this.waitingLookups.filter((l) => !late.includes(l));
      for (const l of late) {
        l.taken = true;
        l.reject(new ApiUnavailableError('identity lookup: no answer within its handshake'));
      }
    }
    const batch = this.waitingLookups.splice(0, this.batchMax);
    // More arrived than this turn takes: the turns to come cover them (batchMax may have shrunk).
    this.coverWaitingLookups();
    if (batch.length === 0) return;
    for (const l of batch) l.taken = true;
    const started = Date.now();
    const timeoutMs = Math.min(
      this.timeoutMs + IDENTIFY_MS_PER_TOKEN * (batch.length - 1),
      Math.min(...batch.map((l) => l.deadline)) - started,
    );
    try {
      if (batch.length === 1 || this.batchUnsupported) {
        await Promise.all(batch.map(async (l) => l.resolve(await this.identifyOne(l.token))));
        return;
      }
      const answers = await this.identifyMany(
        batch.map((l) => l.token),
        timeoutMs,
      );
      if (answers === null) {
        // An api without the batch call: each on its own, in this same turn.
        await Promise.all(batch.map(async (l) => l.resolve(await this.identifyOne(l.token))));
        return;
      }
      if (Date.now() - started < timeoutMs / 2) this.batchMax = Math.min(IDENTITY_BATCH_MAX, this.batchMax * 2);
      batch.forEach((l, i) => l.resolve(answers[i]));
    } catch (err) {
      this.failed(batch, err);
    }
  }

  /**
   * A call for `batch` failed. When every api refused the connection, or the batch was one lookup,
   * its lookups are refused (the handshake answers 502 and the tab comes back): the api is away.
   * Otherwise the api was slow or faulty: the batch size is halved and the lookups go back to the
   * front of the queue, each with a new turn, unless they failed too often or their time is up.
   */
  private failed(batch: WaitingLookup[], err: unknown): void {
    const away = err instanceof ApiUnavailableError && err.away;
    if (batch.length === 1 || away) {
      for (const l of batch) l.reject(err);
      return;
    }
    this.batchMax = Math.max(1, Math.floor(batch.length / 2));
    this.retriedBatches++;
    const now = Date.now();
    const again: WaitingLookup[] = [];
    for (const l of batch) {
      l.failures++;
      if (l.failures >= IDENTIFY_MAX_FAILURES || l.deadline - now < IDENTIFY_MIN_CALL_MS) l.reject(err);
      else {
        l.taken = false;
        again.push(l);
      }
    }
    this.waitingLookups.unshift(...again);
    this.coverWaitingLookups();
  }

  private async identifyOne(token: string): Promise<Identity | null> {
    const res = await this.callNow('GET /realtime/identity', token);
    if (res.status === 401 || res.status === 403) return null;
    if (!res.data) throw new ApiUnavailableError(`identity answered ${res.status}`);
    return identityFrom(res.data);
  }

  /** Many tokens in one call; null when the api has no batch call (404). */
  private async identifyMany(tokens: string[], timeoutMs: number): Promise<(Identity | null)[] | null> {
    const path = endpoints['POST /realtime/identities'].path;
    let res: ApiAnswer;
    try {
      res = await this.readAny(path, null, { tokens }, timeoutMs);
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      // Every api refused the connection (away): none is there to answer a smaller batch either.
      throw new ApiUnavailableError(
        `api unreachable: ${(err as Error).message}${cause ? ` (${cause})` : ''}`,
        neverConnected(err),
      );
    }
    if (res.status === 404) {
      await res.discard();
      this.batchUnsupported = true;
      return null;
    }
    const envelope = (await res.json().catch(() => null)) as Envelope<unknown> | null;
    const parsed = res.status === 200 ? LiveIdentitiesSchema.safeParse(envelope?.data) : null;
    if (!parsed?.success || parsed.data.identities.length !== tokens.length)
      throw new ApiUnavailableError(`identities answered ${res.status}`);
    return parsed.data.identities.map((d) => (d ? identityFrom(d) : null));
  }

  /**
   * The counters the top bar and sidebar show, as of the person's push `pushSeq` (one database
   * snapshot on the api's side). Totals the person may not list count as zero.
   */
  async loadCounters(token: string): Promise<{ counters: Counters; pushSeq: number }> {
    const res = await this.call('counters', 'GET /realtime/counters', token);
    if (res.status === 401) throw new ApiUnavailableError('token rejected while loading counters');
    if (!res.data) throw new ApiUnavailableError(`counters answered ${res.status}`);
    const { pushSeq, ...counters } = res.data;
    return { counters, pushSeq };
  }

  /** True when the api (one of them, with several) answers its health check. */
  async healthy(): Promise<boolean> {
    if (this.targets.several)
      return (await Promise.all(this.targets.urls.map((u) => this.targets.check(u)))).some(Boolean);
    try {
      const res = await fetch(this.baseUrl + endpoints['GET /health'].path, { signal: AbortSignal.timeout(2000) });
      return res.ok;
    } catch {
      return false;
    }
  }
}
