// Instant messaging (issue 4, SPEC §7, DESIGN §5): private and group chats between residents and
// staff with their own tokens — gapless seq, unread counts, pushes to every member, membership
// and estate checks.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conversationListPlan,
  groupsByLookup,
  unreadTotalSqlBelowShare,
  unreadTotalValues,
} from '../src/modules/im/chat.repository';
import {
  grantRolePermission,
  openSocket,
  signInAll,
  startTestApi,
  testEngines,
  type Session,
  type TestApi,
} from './kit';

describe.each(testEngines())('chat on %s', (engine) => {
  let api: TestApi;
  let people: Record<string, Session>;
  const unreadTotal = async (who: string) =>
    (await people[who].post('/im/chatrecord/query/total/unread')).body.data as number;

  beforeAll(async () => {
    api = await startTestApi(engine);
    people = await signInAll(api, {
      admin: 'admin',
      staff: 'staff',
      resident: 'resident1',
      neighbour: 'resident2',
      other: 'admin2',
    });
    // Staff chat only with im:list (issue 14), which the demo staff role lacks.
    await grantRolePermission(people.admin, 'STAFF', 'im:list');
  });
  afterAll(async () => api?.close());

  it('when a resident opens a private chat with staff, then it is created once and both sides find the same one', async () => {
    const first = await people.resident.get(
      `/im/chatrecord/check/chat/${people.resident.personId}/${people.staff.personId}`,
    );
    expect(first.status).toBe(200);
    expect(first.body.data.created).toBe(true);
    const again = await people.resident.get(
      `/im/chatrecord/check/chat/${people.resident.personId}/${people.staff.personId}`,
    );
    expect(again.body.data).toEqual({ groupId: first.body.data.groupId, created: false });
    const fromStaff = await people.staff.get(
      `/im/chatrecord/check/chat/${people.staff.personId}/${people.resident.personId}`,
    );
    expect(fromStaff.body.data.groupId).toBe(first.body.data.groupId);
    // Only in one's own name.
    expect(
      (await people.resident.get(`/im/chatrecord/check/chat/${people.staff.personId}/${people.admin.personId}`)).status,
    ).toBe(400);
  });

  it('when a resident writes, then staff get event 1 at once, unread rises, the list shows it, and reading clears it', async () => {
    const { groupId } = (
      await people.resident.get(`/im/chatrecord/check/chat/${people.resident.personId}/${people.staff.personId}`)
    ).body.data;
    const staffSocket = await openSocket(api.url, people.staff.token, people.staff.personId);
    const residentSocket = await openSocket(api.url, people.resident.token, people.resident.personId);
    try {
      const before = await unreadTotal('staff');
      const sent = await people.resident.post('/im/chatrecord/save', {
        groupId,
        content: 'Hello, the door bell is broken',
        type: 1,
      });
      expect(sent.status).toBe(200);
      const pushed = await staffSocket.waitFor((m) => m.channelType === 1 && m.groupId === groupId);
      expect(pushed).toMatchObject({
        content: 'Hello, the door bell is broken',
        type: 1,
        seq: sent.body.data.seq,
        fromUser: { idUser: people.resident.personId },
      });
      expect((pushed.group as { groupName: string }).groupName).toBeTruthy();
      expect(pushed.read).toBeUndefined();
      const own = await residentSocket.waitFor((m) => m.channelType === 1 && m.groupId === groupId);
      expect(own.read).toBe(true);
      expect(await unreadTotal('staff')).toBe(before + 1);
      expect(await unreadTotal('resident')).toBe(0);

      const list = await people.staff.post('/im/disgroup/list', { page: 1, limit: 1000 });
      const row = list.body.data.list.find((g: { groupId: number }) => g.groupId === groupId);
      expect(row).toMatchObject({
        groupType: 1,
        unread: 1,
        lastRecord: { content: 'Hello, the door bell is broken', fromPersonId: people.resident.personId },
      });
      expect(row.groupName).toBe(
        row.members.find((m: { personId: number }) => m.personId === people.resident.personId).name,
      );
      const byKey = await people.staff.post('/im/disgroup/list', { key: row.groupName.slice(0, 4) });
      expect(byKey.body.data.list.map((g: { groupId: number }) => g.groupId)).toContain(groupId);

      expect((await people.staff.get(`/im/chatrecord/delete/unread?groupId=${groupId}`)).status).toBe(200);
      expect(await unreadTotal('staff')).toBe(before);
      // The reader's tabs learn it from a numbered chat-read event (3300): which group, how many cleared.
      const cleared = await staffSocket.waitFor((m) => m.channelType === 3300 && m.groupId === groupId);
      expect(cleared).toMatchObject({ cleared: 1 });
    } finally {
      await staffSocket.close();
      await residentSocket.close();
    }
  });

  it('when either side lists a private chat, then it is named after the other party, also for a chat stored before its peer was kept', async () => {
    const { groupId } = (
      await people.resident.get(`/im/chatrecord/check/chat/${people.resident.personId}/${people.staff.personId}`)
    ).body.data;
    const rowOf = async (who: string) =>
      (await people[who].post('/im/disgroup/list', { page: 1, limit: 1000 })).body.data.list.find(
        (g: { groupId: number }) => g.groupId === groupId,
      );
    const names = async () => {
      const [owner, peer] = [await rowOf('resident'), await rowOf('staff')];
      return {
        owner: { other: owner.other.personId, members: owner.members.map((m: { personId: number }) => m.personId) },
        peer: { other: peer.other.personId, members: peer.members.map((m: { personId: number }) => m.personId) },
        ownerName: owner.groupName === owner.members[0].name,
        peerName: peer.groupName === peer.members[0].name,
      };
    };
    const expected = {
      owner: { other: people.staff.personId, members: [people.staff.personId] },
      peer: { other: people.resident.personId, members: [people.resident.personId] },
      ownerName: true,
      peerName: true,
    };
    expect(await names()).toEqual(expected);
    // A chat from before migration 0030 had no peer (the migration fills it in; the list also looks it up).
    await api.db.execute(sql`update im_group set peer_person_id = null where id = ${groupId}`);
    expect(await names()).toEqual(expected);
  });

  it('when many records are sent at once, then seqs are gapless and paging back and forth by seq finds them all', async () => {
    const { groupId } = (
      await people.neighbour.get(`/im/chatrecord/check/chat/${people.neighbour.personId}/${people.admin.personId}`)
    ).body.data;
    const sends = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        people[i % 2 ? 'admin' : 'neighbour'].post('/im/chatrecord/save', { groupId, content: `message ${i}` }),
      ),
    );
    expect(sends.every((r) => r.status === 200)).toBe(true);
    const seqs = sends.map((r) => r.body.data.seq as number).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 12 }, (_, i) => seqs[0] + i));

    const newest = await people.admin.post('/im/chatrecord/list', { groupId, limit: 10, order: 'desc' });
    // The demo seeds a few records into this chat before the twelve.
    expect(newest.body.data.total).toBe(seqs[11]);
    expect(newest.body.data.totalPage).toBe(Math.ceil(seqs[11] / 10));
    const firstPage = newest.body.data.list.map((r: { seq: number }) => r.seq);
    expect(firstPage[0]).toBe(seqs[11]);
    const older = await people.admin.post('/im/chatrecord/list', {
      groupId,
      limit: 10,
      order: 'desc',
      seq: firstPage[firstPage.length - 1],
    });
    expect(older.body.data.list.map((r: { seq: number }) => r.seq).slice(0, 2)).toEqual([seqs[1], seqs[0]]);
    const newer = await people.admin.post('/im/chatrecord/list', { groupId, limit: 5, order: 'asc', seq: seqs[8] });
    expect(newer.body.data.list.map((r: { seq: number }) => r.seq)).toEqual([seqs[9], seqs[10], seqs[11]]);
    expect(newer.body.data.list[0]).toMatchObject({
      groupId,
      fromName: expect.any(String),
      createdAt: expect.any(String),
    });
  });

  it('when staff make a group chat, then members are told, only the owner renames or dissolves it, and leavers stop receiving', async () => {
    const staffSocket = await openSocket(api.url, people.staff.token, people.staff.personId);
    const residentSocket = await openSocket(api.url, people.resident.token, people.resident.personId);
    try {
      const made = await people.admin.post('/im/disgroup/chatgroupperson', {
        groupName: 'Block A owners',
        personIds: [people.staff.personId, people.resident.personId],
      });
      expect(made.status).toBe(200);
      const groupId = made.body.data.groupId as number;
      await staffSocket.waitFor((m) => m.channelType === 3200 && m.groupId === groupId);
      await residentSocket.waitFor((m) => m.channelType === 3200 && m.groupId === groupId);
      const members = await people.resident.post(`/im/disgroupmem/list/${groupId}`);
      expect(members.body.data.map((m: { personId: number }) => m.personId).sort()).toEqual(
        [people.admin.personId, people.staff.personId, people.resident.personId].sort(),
      );

      expect(
        (await people.staff.post(`/im/disgroup/updat/group/name/${groupId}`, { groupName: 'Mine now' })).status,
      ).toBe(403);
      expect(
        (await people.admin.post(`/im/disgroup/updat/group/name/${groupId}`, { groupName: 'Block A residents' }))
          .status,
      ).toBe(200);
      expect((await people.resident.get(`/im/disgroup/info/${groupId}`)).body.data.groupName).toBe('Block A residents');

      await people.admin.post('/im/chatrecord/save', { groupId, content: 'Welcome' });
      await residentSocket.waitFor((m) => m.channelType === 3 && m.groupId === groupId && m.content === 'Welcome');

      expect((await people.resident.post(`/im/disgroupmem/quit/disgroup/${groupId}`)).status).toBe(200);
      await staffSocket.waitFor((m) => m.channelType === 5 && m.groupId === groupId);
      await people.admin.post('/im/chatrecord/save', { groupId, content: 'After you left' });
      await staffSocket.waitFor((m) => m.channelType === 3 && m.content === 'After you left');
      expect(residentSocket.messages.some((m) => m.content === 'After you left')).toBe(false);
      expect((await people.resident.post('/im/chatrecord/list', { groupId })).status).toBe(404);

      expect(
        (await people.staff.post('/im/disgroupmem/save', { groupId, personIds: [people.neighbour.personId] })).status,
      ).toBe(200);
      expect((await people.staff.get(`/im/disgroup/dismiss/${groupId}`)).status).toBe(403);
      expect((await people.admin.get(`/im/disgroup/dismiss/${groupId}`)).status).toBe(200);
      await staffSocket.waitFor((m) => m.channelType === 6 && m.groupId === groupId);
      expect((await people.staff.post('/im/chatrecord/save', { groupId, content: 'too late' })).status).toBe(404);
    } finally {
      await staffSocket.close();
      await residentSocket.close();
    }
  });

  it("when someone outside a chat or another estate's staff try, then they cannot read, write or pull in its people", async () => {
    const { groupId } = (
      await people.resident.get(`/im/chatrecord/check/chat/${people.resident.personId}/${people.staff.personId}`)
    ).body.data;
    expect((await people.neighbour.post('/im/chatrecord/list', { groupId })).status).toBe(404);
    expect((await people.neighbour.post('/im/chatrecord/save', { groupId, content: 'x' })).status).toBe(404);
    expect((await people.other.post('/im/chatrecord/list', { groupId })).status).toBe(404);
    expect(
      (await people.other.get(`/im/chatrecord/check/chat/${people.other.personId}/${people.resident.personId}`)).status,
    ).toBe(400);
    expect(
      (
        await people.other.post('/im/disgroup/chatgroupperson', {
          groupName: 'x',
          personIds: [people.resident.personId],
        })
      ).status,
    ).toBe(400);
    const list = await people.other.post('/im/disgroup/list', { limit: 1000 });
    expect(list.body.data.list.map((g: { groupId: number }) => g.groupId)).not.toContain(groupId);
  });

  it('when a resident tries to manage a staff work group, then 403; staff with im:list create one', async () => {
    expect(
      (
        await people.resident.post('/im/disgroup/save/work/group/member', {
          groupName: 'x',
          personIds: [people.staff.personId],
        })
      ).status,
    ).toBe(403);
    const made = await people.admin.post('/im/disgroup/save/work/group/member', {
      groupName: 'Night shift',
      personIds: [people.staff.personId],
    });
    expect(made.status).toBe(200);
    const groupId = made.body.data.groupId;
    const updated = await people.admin.post('/im/disgroup/save/work/group/member', {
      groupId,
      groupName: 'Night shift team',
      personIds: [people.neighbour.personId],
    });
    expect(updated.status).toBe(200);
    const info = await people.admin.get(`/im/disgroup/info/${groupId}`);
    expect(info.body.data).toMatchObject({ groupName: 'Night shift team', isWorkGroup: true });
    expect(info.body.data.members.map((m: { personId: number }) => m.personId).sort()).toEqual(
      [people.admin.personId, people.neighbour.personId].sort(),
    );
    expect((await people.staff.post('/im/chatrecord/list', { groupId })).status).toBe(404);
  });

  it('when a chat message is empty or of an unknown type, then 400 with a message and nothing is stored', async () => {
    const { groupId } = (
      await people.resident.get(`/im/chatrecord/check/chat/${people.resident.personId}/${people.staff.personId}`)
    ).body.data;
    const before = (await people.resident.post('/im/chatrecord/list', { groupId })).body.data.total;
    for (const body of [
      { groupId, content: '   ' },
      { groupId, content: 'x', type: 3 },
      { groupId, content: 'x'.repeat(5001) },
    ]) {
      const res = await people.resident.post('/im/chatrecord/save', body);
      expect(res.status).toBe(400);
      expect(res.body.msg).toBeTruthy();
    }
    expect((await people.resident.post('/im/chatrecord/list', { groupId })).body.data.total).toBe(before);
  });
  it("when a person's groups are a small share of all groups, then the list reads them by key and answers as the join does", async () => {
    // A few groups of the admin among many of other people (the staff's work groups).
    for (let i = 0; i < 3; i++)
      await people.admin.post('/im/disgroup/chatgroupperson', {
        groupName: `Share ${i}`,
        personIds: [people.staff.personId],
      });
    await api.db.execute(sql`analyze im_group`);
    const list = async () => (await people.admin.post('/im/disgroup/list', { page: 1, limit: 1000 })).body.data;
    const chosen = conversationListPlan.lookupBelowShare;
    try {
      conversationListPlan.lookupBelowShare = null;
      const joined = await list();
      expect(await groupsByLookup(api.db, people.admin.personId)).toBe(false);
      conversationListPlan.lookupBelowShare = 1_000_000;
      expect(await groupsByLookup(api.db, people.admin.personId)).toBe(true);
      const lookedUp = await list();
      expect(lookedUp.total).toBeGreaterThanOrEqual(3);
      expect(lookedUp).toEqual(joined);
      // Past the end: the total from its own count, by either shape.
      const past = (await people.admin.post('/im/disgroup/list', { page: 99, limit: 1000 })).body.data;
      expect(past.total).toBe(joined.total);
      // A person in most of the groups keeps the join.
      conversationListPlan.lookupBelowShare = 1e-9;
      expect(await groupsByLookup(api.db, people.admin.personId)).toBe(false);
    } finally {
      conversationListPlan.lookupBelowShare = chosen;
    }
  });
  it('when the unread total is read by lookup or by the join, then both count the same unread, without dissolved groups or groups left', async () => {
    // Unread for the staff in a group that stays, one that is dissolved and one the staff left.
    const made = async (groupName: string) =>
      (
        await people.admin.post('/im/disgroup/chatgroupperson', {
          groupName,
          personIds: [people.staff.personId, people.neighbour.personId],
        })
      ).body.data.groupId as number;
    const [kept, dissolved, left] = [await made('Kept'), await made('Dissolved'), await made('Left')];
    for (const groupId of [kept, dissolved, left])
      for (const content of ['one', 'two'])
        expect((await people.admin.post('/im/chatrecord/save', { groupId, content })).status).toBe(200);
    expect((await people.admin.get(`/im/disgroup/dismiss/${dissolved}`)).status).toBe(200);
    expect((await people.staff.post(`/im/disgroupmem/quit/disgroup/${left}`)).status).toBe(200);
    await api.db.execute(sql`analyze im_group`);
    const tenant = (
      (await api.db.execute(
        sql`select company_id as "companyId", housing_estate_id as "housingEstateId" from person where id = ${people.staff.personId}`,
      )) as unknown as { rows: { companyId: number; housingEstateId: number }[] }
    ).rows[0];
    const byForm = async (who: string, share: number) => {
      const values = unreadTotalValues(people[who].personId, tenant);
      const result = (await api.db.execute(
        unreadTotalSqlBelowShare(share, (name) => sql`${values[name]}`),
      )) as unknown as { rows: { n: unknown }[] };
      return Number(result.rows[0]?.n ?? 0);
    };
    for (const who of ['admin', 'staff', 'neighbour']) {
      const total = await unreadTotal(who);
      // Share 0: never below it (the join); a huge share: always below it (the lookups).
      expect(await byForm(who, 0)).toBe(total);
      expect(await byForm(who, 1e9)).toBe(total);
    }
    const staffBefore = await byForm('staff', 1e9);
    expect((await people.staff.get(`/im/chatrecord/delete/unread?groupId=${kept}`)).status).toBe(200);
    expect(await byForm('staff', 1e9)).toBe(staffBefore - 2);
    expect(await byForm('staff', 0)).toBe(staffBefore - 2);
  });
});
