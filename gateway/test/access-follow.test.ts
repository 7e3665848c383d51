// Issue 30 "Changes take effect at once", what follows a role edit besides the topics: the live
// counters of the holder's tabs (the gateway reloads them for the new permissions), and tabs that
// were connecting while the change was on its way (they never keep the old permissions). Real api,
// real gateways, real tabs; the slow proxy only delays answers the api already gave.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accessDigest, type LiveCounters, type StatusTotals } from '@pm/shared';
import type { GatewayHandle } from '../src/server';
import {
  call,
  fileComplaint,
  openTab,
  residentOf,
  settle,
  signIn,
  slowApi,
  startRealApi,
  startTestGateway,
  waitFor,
  waitForTopic,
  type Person,
  type Tab,
} from './kit';

interface Menu {
  menuId: number;
  perms: string;
}
interface Role {
  roleId: number;
  roleName: string;
}

let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayHandle;
let admin: Person;
let staff: Person;
let role: Role;
let allMenus: Menu[];
let tabs: Tab[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  api = await startRealApi();
  gateway = await startTestGateway(api);
  admin = await signIn(api.url, 'admin');
  staff = await signIn(api.url, 'staff');
  const me = await call<{ roleValue: string }>(api.url, staff.token, 'GET', '/realtime/identity');
  const roles = await call<{ list: (Role & { roleValue: string })[] }>(
    api.url,
    admin.token,
    'POST',
    '/base/sysrole/page',
    {
      page: 1,
      limit: 50,
    },
  );
  role = roles.list.find((r) => r.roleValue === me.roleValue)!;
  allMenus = (await call<{ menus: Menu[] }>(api.url, admin.token, 'GET', `/base/sysrole/infoandmenu/${role.roleId}`))
    .menus;
  // Something to count: a complaint the staff member's totals include.
  await fileComplaint(api.url, await residentOf(api.url, 'resident1'), 'The hallway light flickers');
  // Starting a real api with its demo data takes a while on a loaded machine.
}, 180_000);

afterEach(async () => {
  for (const t of tabs) t.close();
  tabs = [];
  while (closers.length) await closers.pop()!();
  await setStaffMenus(allMenus);
});

afterAll(async () => {
  await gateway?.close();
  await api?.cleanup();
});

/** The administrator saves the staff role with these menus. */
async function setStaffMenus(menus: Menu[]): Promise<void> {
  await call(api.url, admin.token, 'POST', '/base/sysrole/saveorupdate', {
    roleId: role.roleId,
    roleName: role.roleName,
    menuIds: menus.map((m) => m.menuId),
  });
}

const withoutWorkOrders = () => allMenus.filter((m) => !/eventorder|complain/.test(m.perms));
const zero: StatusTotals = { untreated: 0, processing: 0, completed: 0 };
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

async function staffTab(gatewayUrl = gateway.url, token = staff.token, auth?: Record<string, unknown>): Promise<Tab> {
  const tab = await openTab(gatewayUrl, token, { auth });
  tabs.push(tab);
  await waitFor(() => tab.snapshots[0]);
  return tab;
}

describe('a role edit reloads the live counters of its holders’ tabs (issue 30)', () => {
  it('when work orders are taken from a role and given back, then the tabs’ totals disappear and come back as the api counts them', async () => {
    const before = await call<LiveCounters>(api.url, staff.token, 'GET', '/realtime/counters');
    expect(before.complaints.untreated).toBeGreaterThan(0);
    const tab = await staffTab();
    expect(tab.counters().complaints).toEqual(before.complaints);

    await setStaffMenus(withoutWorkOrders());
    await waitFor(() => same(tab.counters().complaints, zero) && same(tab.counters().eventOrders, zero));
    // The gateway's own counters: a tab opened now starts from them.
    const later = await staffTab();
    expect(later.snapshots[0].complaints).toEqual(zero);
    expect(later.snapshots[0].eventOrders).toEqual(zero);

    await setStaffMenus(allMenus);
    const after = await call<LiveCounters>(api.url, staff.token, 'GET', '/realtime/counters');
    expect(after.complaints).toEqual(before.complaints);
    for (const t of [tab, later])
      await waitFor(
        () => same(t.counters().complaints, after.complaints) && same(t.counters().eventOrders, after.eventOrders),
      );
    // Still signed in, told twice on the access topic, never on the session topic.
    expect(tab.events.filter((e) => e.topic === 'access')).toHaveLength(2);
    expect(tab.events.some((e) => e.topic === 'session')).toBe(false);
  });
});

describe('a tab connecting while a change is on its way never keeps the old permissions (issue 30)', () => {
  it('when a tab loaded its profile before the change and connects after it went out, then it is told to read it again', async () => {
    const me = await call<{ roleValue: string; perms: string[] }>(api.url, staff.token, 'GET', '/realtime/identity');
    const loaded = accessDigest(me.roleValue, me.perms);
    const live = await staffTab(gateway.url, staff.token, { access: loaded });
    await settle();
    // Its profile is the gateway's: nothing to tell.
    expect(live.events.filter((e) => e.topic === 'access')).toEqual([]);

    await setStaffMenus(withoutWorkOrders());
    await waitForTopic(live, 'access');
    // A tab that read the profile before the change and connects only now.
    const late = await staffTab(gateway.url, staff.token, { access: loaded });
    const told = await waitForTopic(late, 'access');
    expect(told.kind).toBe('permissions');
    expect(told.payload).toEqual({ change: 'permissions', stopped: [] });
    // A tab that read the profile after the change is not told.
    const now = await call<{ roleValue: string; perms: string[] }>(api.url, staff.token, 'GET', '/realtime/identity');
    const fresh = await staffTab(gateway.url, staff.token, { access: accessDigest(now.roleValue, now.perms) });
    await settle();
    expect(fresh.events.filter((e) => e.topic === 'access')).toEqual([]);
  });

  it('when a tab’s handshake read the old permissions and the change arrived before it joined, then it holds the new ones', async () => {
    const slow = await slowApi(api.url);
    const gw = await startTestGateway({ url: slow.url });
    closers.push(
      () => gw.close(),
      () => slow.close(),
    );
    const first = await staffTab(gw.url);
    expect((await first.subscribe(['workorders'])).topics).toEqual(['workorders']);
    // The same account signed in again (a token the gateway has not seen, so it asks the api):
    // the api answers with the permissions as they are, and the answer is held on its way.
    const second = await signIn(api.url, 'staff');
    slow.hold((path) => path.startsWith('/realtime/identity'));
    const connecting = openTab(gw.url, second.token);
    await waitFor(() => slow.held() === 1);
    await setStaffMenus(withoutWorkOrders());
    await waitForTopic(first, 'access');
    slow.release();
    const late = await connecting;
    tabs.push(late);

    expect(await late.subscribe(['workorders', 'announcements'])).toEqual({
      topics: ['announcements'],
      refused: ['workorders'],
    });
    await api.realtime.publish([staff.personId], { channelType: 7, dataId: 4101, status: 1 });
    await api.realtime.publish([staff.personId], { channelType: 9, dataId: 4102 });
    await waitFor(() => late.events.some((e) => e.topic === 'announcements' && e.dataId === 4102));
    expect(late.events.some((e) => e.topic === 'workorders')).toBe(false);
  });
});

describe('the gateway stops counting a topic taken away at once (issue 30)', () => {
  it('when work orders are taken from a role, then pushes of them count nothing, before and after the counters’ reload', async () => {
    const slow = await slowApi(api.url);
    const gw = await startTestGateway({ url: slow.url });
    closers.push(
      () => gw.close(),
      () => slow.close(),
    );
    const tab = await staffTab(gw.url);
    expect(tab.counters().complaints.untreated).toBeGreaterThan(0);
    expect((await tab.subscribe(['announcements'])).topics).toEqual(['announcements']);
    /** Pushes a new complaint and a new work order to the staff member, then waits until the gateway passed them. */
    let dataId = 4300;
    const pushWorkOrders = async () => {
      await api.realtime.publish([staff.personId], { channelType: 8, messageType: 50, dataId: ++dataId });
      await api.realtime.publish([staff.personId], { channelType: 7, messageType: 49, dataId: ++dataId });
      await api.realtime.publish([staff.personId], { channelType: 9, dataId: ++dataId });
      const marker = dataId;
      await waitFor(() => tab.events.some((e) => e.topic === 'announcements' && e.dataId === marker));
    };

    // The reload of the counters the change asks for is held: the badges go at once all the same.
    slow.hold((path) => path.startsWith('/realtime/counters'));
    await setStaffMenus(withoutWorkOrders());
    await waitFor(() => same(tab.counters().complaints, zero) && same(tab.counters().eventOrders, zero));
    await pushWorkOrders();
    expect((await staffTab(gw.url)).snapshots[0]).toMatchObject({ complaints: zero, eventOrders: zero });
    expect(slow.held()).toBe(1);

    // After the reload too.
    slow.release();
    await settle();
    await pushWorkOrders();
    expect((await staffTab(gw.url)).snapshots[0]).toMatchObject({ complaints: zero, eventOrders: zero });
    expect(tab.counters()).toMatchObject({ complaints: zero, eventOrders: zero });
  });
});
