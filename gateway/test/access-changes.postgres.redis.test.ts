// Issue 30 across the scale-out of DESIGN §1: two api processes on one PostgreSQL database and
// two gateways on one Redis. A holder has a tab on each gateway; a role edit made through one api
// process reaches both tabs (the topic stops on both), and disabling the account through the other
// signs both tabs out at once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle } from '../src/server';
import {
  call,
  fileComplaint,
  openTab,
  residentOf,
  settle,
  signIn,
  startTestGateway,
  startTwoApiProcesses,
  waitFor,
  waitForTopic,
  type ApiProcess,
  type Tab,
  type TwoApiProcesses,
} from './kit';

const redisUrl = process.env.TEST_REDIS_URL as string;
let pair: TwoApiProcesses | null = null;
let apis: ApiProcess[] = [];
let gateways: GatewayHandle[] = [];
const tabs: Tab[] = [];

beforeAll(async () => {
  pair = await startTwoApiProcesses('access');
  apis = pair.apis;
  const [first, second] = pair.apis;
  const prefix = `pm-access-test:${randomUUID()}:`;
  gateways = [
    await startTestGateway(first, { redisUrl, redisPrefix: prefix }),
    await startTestGateway(second, { redisUrl, redisPrefix: prefix }),
  ];
}, 240_000);

afterAll(async () => {
  for (const t of tabs) t.close();
  for (const g of gateways) await g.close();
  await pair?.stop();
});

describe('access changes across two api processes and two gateways (issue 30)', () => {
  it('when a role edit and then a disabled account go through different api processes, then the holder’s tabs on both gateways follow at once', async () => {
    const [api1, api2] = apis;
    const admin = await signIn(api1.url, 'admin');
    const staff = await signIn(api1.url, 'staff');
    const me = await call<{ accId: number; roleValue: string }>(api1.url, staff.token, 'GET', '/realtime/identity');
    for (const g of gateways) {
      const tab = await openTab(g.url, staff.token);
      tabs.push(tab);
      await waitFor(() => tab.snapshots[0]);
      expect((await tab.subscribe(['workorders'])).topics).toEqual(['workorders']);
    }
    const resident = await residentOf(api2.url, 'resident1');
    const before = await fileComplaint(api2.url, resident, 'Before the change');
    for (const tab of tabs) await waitForTopic(tab, 'workorders', (e) => e.dataId === before && e.action === 'new');

    // The role edit through the second api process.
    const roles = await call<{ list: { roleId: number; roleName: string; roleValue: string }[] }>(
      api2.url,
      admin.token,
      'POST',
      '/base/sysrole/page',
      { page: 1, limit: 50 },
    );
    const role = roles.list.find((r) => r.roleValue === me.roleValue)!;
    const info = await call<{ menus: { menuId: number; perms: string }[] }>(
      api2.url,
      admin.token,
      'GET',
      `/base/sysrole/infoandmenu/${role.roleId}`,
    );
    await call(api2.url, admin.token, 'POST', '/base/sysrole/saveorupdate', {
      roleId: role.roleId,
      roleName: role.roleName,
      menuIds: info.menus.filter((m) => !/eventorder|complain/.test(m.perms)).map((m) => m.menuId),
    });
    for (const tab of tabs) {
      const told = await waitForTopic(tab, 'access');
      expect(told.payload.stopped).toEqual(['workorders']);
      expect(told.payload).not.toHaveProperty('perms');
    }
    const after = await fileComplaint(api1.url, resident, 'After the change');
    await settle(1000);
    for (const tab of tabs) {
      const workOrders = tab.events.filter((e) => e.topic === 'workorders').map((e) => e.dataId);
      expect(workOrders).toContain(before);
      expect(workOrders).not.toContain(after);
      expect(tab.socket.connected).toBe(true);
    }
    // Both api processes check calls against the permissions as they are now.
    for (const a of apis) {
      const { perms } = await call<{ perms: string[] }>(a.url, staff.token, 'GET', '/realtime/identity');
      expect(perms).not.toContain('eventorder:list');
    }

    // The account disabled through the first api process: both tabs are dropped at once, and
    // coming back is refused (the console then says the session ended).
    const dropped = tabs.map((tab) => new Promise<string>((resolve) => tab.socket.once('disconnect', resolve)));
    await call(api1.url, admin.token, 'POST', '/account/update', { accId: me.accId, enabled: false });
    expect(await Promise.all(dropped)).toEqual(['io server disconnect', 'io server disconnect']);
    for (const g of gateways) await expect(openTab(g.url, staff.token)).rejects.toThrow();
  });
});
