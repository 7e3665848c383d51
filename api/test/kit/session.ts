// Signing in and calling the api as a client does: POST /oauth/token with the console's client
// credentials, then bearer calls answering the envelope `{ code, msg, data }` and the HTTP status.
import request from 'supertest';

/** The demo accounts of the seed (api/src/README.md "Demo data"). */
export const ACCOUNTS = {
  admin: { username: 'admin', password: 'admin123' },
  staff: { username: 'staff', password: 'staff123' },
  /** The read-only wall screen (issue 22): role "Wall screen", only wall:view. */
  wall: { username: 'wall', password: 'wall123' },
  /** The administrator of the second tenant (another company and estate). */
  admin2: { username: 'admin2', password: 'admin123' },
  resident1: { username: 'resident1', password: 'resident123' },
  resident2: { username: 'resident2', password: 'resident123' },
  resident3: { username: 'resident3', password: 'resident123' },
  resident4: { username: 'resident4', password: 'resident123' },
  resident5: { username: 'resident5', password: 'resident123' },
} as const;

export type Account = keyof typeof ACCOUNTS | { username: string; password: string };

/** Where calls go: a started api (`{ url }`) or a base URL. */
export type Target = { url: string } | string;

export const CLIENT_AUTH = `Basic ${Buffer.from('console:console-secret').toString('base64')}`;

const urlOf = (target: Target) => (typeof target === 'string' ? target : target.url);
const credentialsOf = (account: Account) => (typeof account === 'string' ? ACCOUNTS[account] : account);

/**
 * POST /oauth/token as the console does (form body, Basic client credentials), answering the raw
 * response; `fields` are added to the password grant, `headers` replace or add request headers.
 */
export function requestToken(
  target: Target,
  fields: Record<string, string | number>,
  headers: Record<string, string> = {},
): request.Test {
  return request(urlOf(target))
    .post('/oauth/token')
    .set({ Authorization: CLIENT_AUTH, ...headers })
    .type('form')
    .send({ grant_type: 'password', ...fields });
}

/** Signs in and answers the bearer token (throws unless 200). */
export async function tokenOf(target: Target, account: Account): Promise<string> {
  const { username, password } = credentialsOf(account);
  const res = await requestToken(target, { username, password });
  if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
}

/** Calls with one bearer token; each answers a supertest request (await it for `status` and `body`). */
export interface Caller {
  token: string;
  headers: { Authorization: string };
  get(path: string): request.Test;
  post(path: string, body?: object): request.Test;
  call(method: 'get' | 'post', path: string, body?: object): request.Test;
}

/** A signed-in person: the token's calls plus who they are. */
export interface Session extends Caller {
  username: string;
  personId: number;
  accId: number;
}

/** Calls carrying `token` (a token from elsewhere, a revoked or a made-up one). */
export function callerOf(target: Target, token: string): Caller {
  const url = urlOf(target);
  const headers = { Authorization: `Bearer ${token}` };
  const call = (method: 'get' | 'post', path: string, body: object = {}) =>
    method === 'get' ? request(url).get(path).set(headers) : request(url).post(path).set(headers).send(body);
  return {
    token,
    headers,
    call,
    get: (path) => call('get', path),
    post: (path, body) => call('post', path, body),
  };
}

/** Signs in through /oauth/token and reads who the account is from /auth/current/user. */
export async function signIn(target: Target, account: Account): Promise<Session> {
  const { username } = credentialsOf(account);
  const caller = callerOf(target, await tokenOf(target, account));
  const me = await caller.get('/auth/current/user');
  if (me.status !== 200) throw new Error(`/auth/current/user of ${username} answered ${me.status}`);
  const { personId, accId } = me.body.data.accountInfo as { personId: number; accId: number };
  return { ...caller, username, personId, accId };
}

/** Signs in every account of `accounts` at once: `{ admin: Session, … }`. */
export async function signInAll<K extends string>(
  target: Target,
  accounts: Record<K, Account>,
): Promise<Record<K, Session>> {
  const entries = await Promise.all(
    Object.entries<Account>(accounts).map(async ([key, account]) => [key, await signIn(target, account)] as const),
  );
  return Object.fromEntries(entries) as Record<K, Session>;
}

/** A house a resident may report from: the body fields of /app/complain/save and friends. */
export interface House {
  houseType: number;
  houseId: number;
}

export interface ResidentSession extends Session {
  /** The first house of GET /app/house/list. */
  house: House;
}

/** Signs in a resident of the demo estate and reads their first house. */
export async function signInResident(target: Target, account: Account = 'resident1'): Promise<ResidentSession> {
  const session = await signIn(target, account);
  const houses = await session.get('/app/house/list');
  if (houses.status !== 200 || !houses.body.data[0]) throw new Error(`${session.username} has no house`);
  const { houseType, houseId } = houses.body.data[0] as House;
  return { ...session, house: { houseType, houseId } };
}

/** A resident files a complaint from their first house (a real change that pushes to the estate's staff); answers its id. */
export async function fileComplaint(resident: Session, name: string): Promise<number> {
  const houses = (await resident.get('/app/house/list')).body.data as House[];
  const res = await resident.post('/app/complain/save', {
    name,
    note: 'Water on the stairs',
    houseType: houses[0].houseType,
    houseId: houses[0].houseId,
  });
  if (res.status !== 200) throw new Error(`filing a complaint answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.complainId as number;
}
