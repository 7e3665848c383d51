import { defineTopic } from './define-topic';

/** What a session event carries: a system notice's text, or why the session ended. */
export type SessionPayload = {
  title?: string;
  content?: string;
  reason?: string;
};

type SessionKind = 'system' | 'login' | 'logout' | 'expired' | 'forcedLogout';

const KIND_BY_CHANNEL: Record<number, SessionKind> = { 0: 'system', 3000: 'login', 3001: 'logout' };

/**
 * The session: system notices (0), sign-in elsewhere (3000), sign-out (3001) and, from the
 * gateway itself, expiry and forced logout. Every tab gets it; the client's session handling
 * shows it (no toast from here).
 */
export const session = defineTopic<{ kind: SessionKind }, SessionPayload>()({
  name: 'session',
  permissions: null,
  channels: { system: 0, loginNotice: 3000, logout: 3001 },
  messageTypes: {},
  classify: (m) => ({ kind: KIND_BY_CHANNEL[m.channelType] }),
});
