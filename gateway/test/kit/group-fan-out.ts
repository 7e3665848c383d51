// Issue 31: a message to a group reaches every member's tabs once, whichever gateway holds the
// member's upstream and tabs, and no one else's; the api sends it to each gateway once (a fan-out
// frame) where that gateway holds several members' upstreams. Shared by chat-fan-out.test.ts (one
// gateway, no Redis) and chat-fan-out.redis.test.ts (two gateways on Redis).
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import type { ChatEvent } from '@pm/shared';
import type { GatewayHandle } from '../../src/server';
import { signIn } from './index';
import { call, dropConnection, metric, openTab, settle, waitFor, type startRealApi, type Tab } from './support';

type Api = Awaited<ReturnType<typeof startRealApi>>;
interface Member {
  personId: number;
  token: string;
}

/** Staff accounts with the administrator's role (every topic theirs), made in the api's database. */
async function makeStaff(api: Api, count: number): Promise<Member[]> {
  const { createBenchStaff } = (await import(
    /* @vite-ignore */ pathToFileURL(resolve(import.meta.dirname, '../../../api/bench/bench-staff.ts')).href
  )) as { createBenchStaff(db: unknown, n: number, o: { prefix: string }): Promise<Member[]> };
  return createBenchStaff((api as unknown as { db: unknown }).db, count, {
    prefix: `fan${randomBytes(3).toString('hex')}`,
  });
}

const messagesOf = (tab: Tab, content: string) =>
  tab.events.filter(
    (e) => e.topic === 'chat' && (e as ChatEvent).kind === 'message' && (e as ChatEvent).payload.content === content,
  );

/**
 * `gateways[0]` and `gateways[1]` (the same one without Redis): members 0 and 1 have their tabs on
 * the first, members 2 and 3 on the second, member 3 one more on the first; a fifth person, not a
 * member, a tab on the first.
 */
export async function groupMessageReachesEveryMemberOnce(api: Api, gateways: [GatewayHandle, GatewayHandle]) {
  const admin = await signIn(api.url, 'admin');
  const staff = await makeStaff(api, 5);
  const [m0, m1, m2, m3, outsider] = staff;
  const placed: [Member, GatewayHandle][] = [
    [m0, gateways[0]],
    [m0, gateways[0]],
    [m1, gateways[0]],
    [m2, gateways[1]],
    [m3, gateways[1]],
    [m3, gateways[0]],
    [outsider, gateways[0]],
  ];
  const tabs: { who: Member; tab: Tab }[] = [];
  for (const [who, g] of placed) {
    const tab = await openTab(g.url, who.token, { reconnection: true });
    tabs.push({ who, tab });
    expect((await tab.subscribe(['chat'])).topics).toEqual(['chat']);
  }
  try {
    for (const who of staff) await waitFor(() => api.realtime.connectionCount(who.personId) === 1, 30_000);
    await waitFor(() => tabs.every(({ tab }) => tab.snapshots.length > 0), 30_000);
    const members = [m0, m1, m2, m3];
    const memberTabs = tabs.filter(({ who }) => who !== outsider);
    const outsiderTab = tabs.find(({ who }) => who === outsider)!.tab;

    const { groupId } = await call<{ groupId: number }>(
      api.url,
      admin.token,
      'POST',
      '/im/disgroup/save/work/group/member',
      {
        groupName: 'Fan-out',
        personIds: members.map((m) => m.personId),
      },
    );
    const framesBefore = (await Promise.all(gateways.map((g) => metric(g.url, 'gateway_fanout_frames_total')))).reduce(
      (a, b) => a + b,
      0,
    );
    let sent = 0;
    const send = async (content: string) => {
      await call(api.url, admin.token, 'POST', '/im/chatrecord/save', {
        groupId,
        content,
        clientId: `fan-out-${randomBytes(8).toString('hex')}-${sent++}`,
      });
    };
    /** Every member tab got `content` exactly once (after a moment for duplicates), the outsider not. */
    const reachedOnce = async (content: string, among = memberTabs) => {
      await waitFor(() => among.every(({ tab }) => messagesOf(tab, content).length > 0), 30_000);
      await settle(500);
      for (const { tab } of among) expect(messagesOf(tab, content)).toHaveLength(1);
      expect(messagesOf(outsiderTab, content)).toHaveLength(0);
    };

    // 1. Live: each member's tabs get it once, with its unread counted once in every tab.
    const unreadBefore = memberTabs.map(({ tab }) => tab.counters().chatUnread);
    await send('Fan-out one');
    await reachedOnce('Fan-out one');
    await waitFor(() => memberTabs.every(({ tab }, i) => tab.counters().chatUnread === unreadBefore[i] + 1));
    const framesAfter = (await Promise.all(gateways.map((g) => metric(g.url, 'gateway_fanout_frames_total')))).reduce(
      (a, b) => a + b,
      0,
    );
    expect(framesAfter).toBeGreaterThan(framesBefore);

    // 2. A member's upstream drops (the api's side: 1006) and the message is sent meanwhile: it
    //    resumes from the journal; every tab still gets it once, and the next one too.
    api.realtime.terminate(m0.personId);
    await send('Fan-out two');
    await reachedOnce('Fan-out two');
    await waitFor(() => api.realtime.connectionCount(m0.personId) === 1, 30_000);
    await send('Fan-out three');
    await reachedOnce('Fan-out three');

    // 3. A member's tab drops for a moment (socket.io recovery) while a message is sent.
    const blinking = tabs.find(({ who }) => who === m1)!.tab;
    dropConnection(blinking);
    await send('Fan-out four');
    await waitFor(() => blinking.socket.connected, 30_000);
    await reachedOnce('Fan-out four');

    // 4. A member removed before the send does not get it; the others do, once.
    await call(api.url, admin.token, 'POST', '/im/disgroupmem/remove', { groupId, personIds: [m2.personId] });
    await send('Fan-out five');
    const stillMembers = memberTabs.filter(({ who }) => who !== m2);
    await reachedOnce('Fan-out five', stillMembers);
    for (const { tab } of memberTabs.filter(({ who }) => who === m2))
      expect(messagesOf(tab, 'Fan-out five')).toHaveLength(0);
  } finally {
    for (const { tab } of tabs) tab.close();
  }
}
