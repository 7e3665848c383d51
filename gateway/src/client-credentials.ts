import type { IncomingMessage } from 'node:http';

/** The OAuth client the console signs in as (OAUTH_CLIENT_ID / OAUTH_CLIENT_SECRET, as the api has them). */
export interface OAuthClient {
  id: string;
  secret: string;
}

const TOKEN_CALL = /^\/oauth\/token(\?|$)/;

/**
 * The console is browser JavaScript: a client secret in it would be readable by anyone, so it
 * sends no client credentials. The gateway, a server-side component with the secret in its own
 * environment, adds HTTP Basic `OAUTH_CLIENT_ID:OAUTH_CLIENT_SECRET` to a `POST /oauth/token`
 * (path relative to /api) that carries none. A caller that sends its own Basic credentials (the
 * mobile app, the simulator, tests) keeps them, and a wrong one is refused by the api as before.
 * A stale `Bearer` token the console may still send is not a client credential: it is replaced.
 */
export function addClientCredentials(req: IncomingMessage, path: string, client: OAuthClient): void {
  if (req.method !== 'POST' || !TOKEN_CALL.test(path)) return;
  if (/^Basic\s/i.test(req.headers.authorization ?? '')) return;
  req.headers.authorization = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`;
}
