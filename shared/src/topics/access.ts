import { defineTopic } from './define-topic';

/**
 * What the api pushes when a person's access changed (issue 30, "Changes take effect at once"):
 * the account concerned and what changed. The gateway adds the topics it stopped for the tabs.
 */
export type AccessPayload = {
  /** The account whose access changed (a person's tabs signed in with another account are left alone). */
  accId?: number;
  /** 'permissions': role, role's menus, department or account details; 'revoked': deleted or disabled. */
  change?: 'permissions' | 'revoked';
  /**
   * To the gateway only (never passed on to tabs): the accounts of a `permissions` change and the
   * permission codes they hold now (one role's), so the gateway needs no call back per tab.
   */
  accIds?: number[];
  perms?: string[];
  /** Set by the gateway: topics this tab was subscribed to and may no longer receive. */
  stopped?: string[];
};

const KINDS = { permissions: 'permissions', revoked: 'revoked' } as const;

/**
 * Access changed: the gateway re-reads the person's permissions before it passes this on (tabs
 * stop topics they may no longer receive; a revoked account's tabs are signed out on the session
 * topic), then every tab of the person reloads its menu and permission directive and leaves a
 * screen it may no longer open. Channel 3960 is this api's own number, not SPEC's; no toast
 * from here (the client shows its own message when a screen closes).
 */
export const access = defineTopic<{ kind: 'permissions' | 'revoked' }, AccessPayload>()({
  name: 'access',
  permissions: null,
  channels: { accessChanged: 3960 },
  messageTypes: {},
  classify: (m) => ({ kind: m.change === 'revoked' ? KINDS.revoked : KINDS.permissions }),
});
