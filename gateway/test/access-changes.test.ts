// Issue 30 "Changes take effect at once": a role edit reaches a holder's open tabs without signing
// in again (the gateway re-reads the permissions, stops the topics they lost and tells the tabs on
// the `access` topic); a disabled account's tabs are signed out at once. Real api, gateway, tabs.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Topic } from '@pm/shared';
import type { GatewayHandle } from '../src/server';
import { call, openTab, settle, signIn, startRealApi, startTestGateway, waitFor, waitForTopic, type Tab } from './kit';

let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayHandle;
let admin: { token: string; personId: number };
let staff: { token: string; personId: number };
let tabs: Tab[] = [];

interface Identity {
  accId: number;
  roleValue: string;
  perms: string[];
}
interface Menu {
  menuId: number;
  perms: string;
}

beforeAll(async () => {
  api = await startRealApi();
  gateway = await startTestGateway(api, { reconnectDelayMs: 300 });
  admin = await signIn(api.url, 'admin');
  staff = await signIn(api.url, 'staff');
});

afterAll(async () => {
  await gateway?.close();
  await api?.cleanup();
});

afterEach(() => {
  for (const t of tabs) t.close();
  tabs = [];
});

async function staffTab(topics: Topic[] = ['workorders', 'announcements']): Promise<Tab> {
  const tab = await openTab(gateway.url, staff.token);
  tabs.push(tab);
  await waitFor(() => tab.snapshots[0]);
  const ack = await tab.subscribe(topics);
  expect(ack.topics).toEqual(topics);
  return tab;
}

/** The staff role without its complaint and work-order menus, saved by the administrator. */
async function takeWorkOrdersFromStaffRole(): Promise<void> {
  const me = await call<Identity>(api.url, staff.token, 'GET', '/realtime/identity');
  const roles = await call<{ list: { roleId: number; roleName: string; roleValue: string }[] }>(
    api.url,
    admin.token,
    'POST',
    '/base/sysrole/page',
    { page: 1, limit: 50 },
  );
  const role = roles.list.find((r) => r.roleValue === me.roleValue)!;
  const info = await call<{ menus: Menu[] }>(api.url, admin.token, 'GET', `/base/sysrole/infoandmenu/${role.roleId}`);
  const kept = info.menus.filter((m) => !/eventorder|complain/.test(m.perms));
  expect(kept.length).toBeLessThan(info.menus.length);
  await call(api.url, admin.token, 'POST', '/base/sysrole/saveorupdate', {
    roleId: role.roleId,
    roleName: role.roleName,
    menuIds: kept.map((m) => m.menuId),
  });
}

const workOrders = (tab: Tab) => tab.events.filter((e) => e.topic === 'workorders').map((e) => e.dataId);
const announcements = (tab: Tab) => tab.events.filter((e) => e.topic === 'announcements').map((e) => e.dataId);

describe('access changes reach open tabs at once (issue 30)', () => {
  it('when an administrator takes work orders from a role, then the holder’s tabs stop receiving them and are told, still signed in', async () => {
    const [first, second] = [await staffTab(), await staffTab()];
    await api.realtime.publish([staff.personId], { channelType: 7, dataId: 3001, status: 1 });
    await waitFor(() => workOrders(first).includes(3001) && workOrders(second).includes(3001));

    await takeWorkOrdersFromStaffRole();

    for (const tab of [first, second]) {
      const told = await waitForTopic(tab, 'access');
      expect(told.kind).toBe('permissions');
      expect(told.payload.stopped).toEqual(['workorders']);
    }
    await api.realtime.publish([staff.personId], { channelType: 7, dataId: 3002, status: 1 });
    await api.realtime.publish([staff.personId], { channelType: 9, dataId: 3003 });
    await waitFor(() => announcements(first).includes(3003) && announcements(second).includes(3003));
    await settle();
    expect(workOrders(first)).toEqual([3001]);
    expect(workOrders(second)).toEqual([3001]);
    // Still signed in: no session event, the sockets stay, and a new subscription is checked anew.
    expect(first.events.some((e) => e.topic === 'session')).toBe(false);
    expect(first.socket.connected).toBe(true);
    expect(await first.subscribe(['workorders', 'announcements'])).toEqual({
      topics: ['announcements'],
      refused: ['workorders'],
    });
    // The api checks every call against the permissions as they are now.
    const res = await fetch(`${api.url}/realtime/identity`, { headers: { authorization: `Bearer ${staff.token}` } });
    const { data } = (await res.json()) as { data: Identity };
    expect(data.perms).not.toContain('eventorder:list');
  });

  it('when an administrator disables an account, then its open tabs are signed out at once', async () => {
    const tab = await staffTab(['announcements']);
    const me = await call<Identity>(api.url, staff.token, 'GET', '/realtime/identity');
    const disconnected = new Promise<string>((resolve) => tab.socket.once('disconnect', resolve));
    await call(api.url, admin.token, 'POST', '/account/update', { accId: me.accId, enabled: false });
    const ended = await waitForTopic(tab, 'session');
    expect(ended.kind).toBe('forcedLogout');
    expect(await disconnected).toBe('io server disconnect');
    // The token is no longer good anywhere.
    const res = await fetch(`${api.url}/realtime/identity`, { headers: { authorization: `Bearer ${staff.token}` } });
    expect(res.status).toBe(401);
  });
});
