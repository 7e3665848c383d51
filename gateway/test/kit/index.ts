// The gateway tier's test kit: a real api (in-process or as a process), the gateway in-process or
// as a process, signing in through either, console tabs (socket.io) and waiting for what they hear.
// docs/adding-a-feature.md "Tests of a feature" says how a feature's tests use it.
import { startGateway, type GatewayHandle, type GatewayOptions } from '../../src/server';
import { login, personIdOf, waitFor, type Tab } from './support';
import type { LiveEvent, Topic } from '@pm/shared';

export * from './support';
export * from './gateway-process';
export * from './slow-api';
export * from './two-api-processes';
export * from './balancer';

/** The demo accounts of the seed. */
export const ACCOUNTS = {
  admin: { username: 'admin', password: 'admin123' },
  staff: { username: 'staff', password: 'staff123' },
  admin2: { username: 'admin2', password: 'admin123' },
  resident1: { username: 'resident1', password: 'resident123' },
} as const;

export type Account = keyof typeof ACCOUNTS | { username: string; password: string };

export interface Person {
  token: string;
  personId: number;
}

/**
 * Signs in at `baseUrl` — the api's URL, or a gateway's URL + '/api' to go through the gateway —
 * and reads the person id from /auth/current/user.
 */
export async function signIn(baseUrl: string, account: Account): Promise<Person> {
  const { username, password } = typeof account === 'string' ? ACCOUNTS[account] : account;
  const token = await login(baseUrl, username, password);
  return { token, personId: await personIdOf(baseUrl, token) };
}

/** The gateway in-process in front of `api`, quiet, with `options` on top. */
export function startTestGateway(api: { url: string }, options: Partial<GatewayOptions> = {}): Promise<GatewayHandle> {
  return startGateway({ apiUrl: api.url, logLevel: 'silent', ...options });
}

/** Resolves with the first event of `topic` the tab got (already or later) that passes `match`. */
export async function waitForTopic<T extends Topic>(
  tab: Tab,
  topic: T,
  match: (e: Extract<LiveEvent, { topic: T }>) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<Extract<LiveEvent, { topic: T }>> {
  return waitFor(
    () => tab.events.find((e): e is Extract<LiveEvent, { topic: T }> => e.topic === topic && match(e as never)),
    timeoutMs,
  );
}
