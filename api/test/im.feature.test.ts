// Instant messaging's api tests on the kit's template (api/test/work-orders.feature.test.ts,
// issue 31): 1 happy path, 2 its rules (owner only, idempotent resend), 3 permission per call,
// 4 another tenant's ids, 5 pushes to exactly the members, 6 bad input → 400 with nothing
// written. Everything through HTTP and the realtime socket, on every engine.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callerOf,
  declaredCalls,
  grantRolePermission,
  makeCall,
  openRealtime,
  otherTenant,
  rowCounts,
  signIn,
  signInAll,
  staffWithout,
  startTestApi,
  testEngines,
  type FeatureCall,
  type Session,
  type TestApi,
} from './kit';

const TABLES = [
  'im_group',
  'im_group_member',
  'im_chat_record',
  'im_address_book',
  'im_address_book_entry',
  'complain',
] as const;

describe.each(testEngines())('instant messaging on %s', (engine) => {
  let api: TestApi;
  let p: Record<'admin' | 'staff' | 'resident' | 'neighbour', Session>;
  let other: { admin: Session; staff: Session };
  let groupId: number;
  let privateId: number;

  /** Every staff call with a valid body; `{id}` is a group (record: addresses one group by id). */
  const staffCalls = (): (FeatureCall & { record?: true })[] => [
    { method: 'post', path: '/im/disgroup/list', body: () => ({ page: 1, limit: 1000 }) },
    { method: 'get', path: '/im/disgroup/info/{id}', record: true },
    {
      method: 'post',
      path: '/im/disgroup/chatgroupperson',
      body: () => ({ groupName: 'Perm', personIds: [p.resident.personId] }),
    },
    {
      method: 'post',
      path: '/im/disgroup/save/work/group/member',
      body: () => ({ groupName: 'Perm work', personIds: [p.admin.personId] }),
    },
    {
      method: 'post',
      path: '/im/disgroup/updat/group/name/{groupId}',
      body: () => ({ groupName: 'Renamed' }),
      record: true,
    },
    { method: 'get', path: '/im/disgroup/dismiss/{id}', record: true },
    { method: 'post', path: '/im/disgroupmem/list/{id}', record: true },
    { method: 'post', path: '/im/disgroupmem/quit/disgroup/{id}', record: true },
    {
      method: 'post',
      path: '/im/disgroupmem/save',
      body: (id) => ({ groupId: id, personIds: [p.neighbour.personId] }),
      record: true,
    },
    {
      method: 'post',
      path: '/im/disgroupmem/remove',
      body: (id) => ({ groupId: id, personIds: [p.resident.personId] }),
      record: true,
    },
    { method: 'post', path: '/im/chatrecord/list', body: (id) => ({ groupId: id }), record: true },
    { method: 'post', path: '/im/chatrecord/save', body: (id) => ({ groupId: id, content: 'x' }), record: true },
    { method: 'get', path: '/im/chatrecord/delete/unread', record: true },
    { method: 'post', path: '/im/chatrecord/query/total/unread' },
    {
      method: 'post',
      path: '/im/chatrecord/to/work',
      body: (id) => ({ groupId: id, seq: 1, kind: 'complaint', name: 'x', note: 'x', houseType: 1, houseId: 1 }),
      record: true,
    },
    { method: 'get', path: '/im/chat/resident/{id}' },
    { method: 'post', path: '/im/addressbook/staff', body: () => ({}) },
    { method: 'post', path: '/im/addressbook/residents', body: () => ({ page: 1, limit: 10 }) },
    { method: 'get', path: '/im/addressbook/settings' },
    {
      method: 'post',
      path: '/im/addressbook/settings/save',
      body: () => ({ title: 'Office', showPhone: false, entries: [] }),
    },
  ];
  // GET calls with a query take it in the path.
  const withQuery = (c: FeatureCall & { record?: true }, id: number) =>
    c.path === '/im/chatrecord/delete/unread' ? { ...c, path: `${c.path}?groupId=${id}` } : c;
  const records = async (id: number) =>
    (await p.admin.post('/im/chatrecord/list', { groupId: id, limit: 100 })).body.data;

  beforeAll(async () => {
    api = await startTestApi(engine);
    p = await signInAll(api, { admin: 'admin', staff: 'staff', resident: 'resident1', neighbour: 'resident2' });
    other = await otherTenant(api);
    await grantRolePermission(p.admin, 'STAFF', 'im:list');
    const made = await p.admin.post('/im/disgroup/chatgroupperson', {
      groupName: 'Lift works',
      personIds: [p.staff.personId, p.resident.personId],
    });
    groupId = made.body.data.groupId;
    privateId = (await p.resident.get(`/im/chatrecord/check/chat/${p.resident.personId}/${p.admin.personId}`)).body.data
      .groupId;
  });
  afterAll(async () => api?.close());

  it('when staff open the chat list, read a conversation and answer, then unread, last record and history follow by seq', async () => {
    const sent = await p.resident.post('/im/chatrecord/save', { groupId: privateId, content: 'Is the lift working?' });
    expect(sent.status).toBe(200);
    const list = (await p.admin.post('/im/disgroup/list', { page: 1, limit: 1000 })).body.data;
    const row = list.list.find((g: { groupId: number }) => g.groupId === privateId);
    expect(row).toMatchObject({
      groupType: 1,
      groupName: expect.stringContaining('Resident 1'),
      lastRecord: { content: 'Is the lift working?', fromPersonId: p.resident.personId },
      other: { personId: p.resident.personId, resident: true },
    });
    expect(row.unread).toBeGreaterThan(0);
    const total = (await p.admin.post('/im/chatrecord/query/total/unread')).body.data;
    expect((await p.admin.get(`/im/chatrecord/delete/unread?groupId=${privateId}`)).status).toBe(200);
    expect((await p.admin.post('/im/chatrecord/query/total/unread')).body.data).toBe(total - row.unread);
    const answer = await p.admin.post('/im/chatrecord/save', {
      groupId: privateId,
      content: 'Yes, since noon',
      clientId: 'answer-0001',
    });
    expect(answer.body.data).toMatchObject({ seq: sent.body.data.seq + 1, clientId: 'answer-0001', type: 1 });
    const newer = await p.admin.post('/im/chatrecord/list', {
      groupId: privateId,
      order: 'asc',
      limit: 5,
      seq: sent.body.data.seq,
    });
    expect(newer.body.data.list.map((r: { content: string }) => r.content)).toEqual(['Yes, since noon']);
    // The resident's side panel: houses and open complaints.
    const side = await p.admin.get(`/im/chat/resident/${p.resident.personId}`);
    expect(side.body.data.houses.length).toBeGreaterThan(0);
    expect(Array.isArray(side.body.data.complaints)).toBe(true);
  });

  it('when the same message is sent twice with one client id, then one record is stored and the second call answers it', async () => {
    const body = { groupId, content: 'Double submit', clientId: 'c-double-0001' };
    const [a, b] = await Promise.all([
      p.staff.post('/im/chatrecord/save', body),
      p.staff.post('/im/chatrecord/save', body),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.data.recordId).toBe(a.body.data.recordId);
    const again = await p.staff.post('/im/chatrecord/save', body);
    expect(again.body.data).toMatchObject({ recordId: a.body.data.recordId, seq: a.body.data.seq });
    expect(
      (await records(groupId)).list.filter((r: { content: string }) => r.content === 'Double submit'),
    ).toHaveLength(1);
    // Another member cannot take that id over.
    expect((await p.admin.post('/im/chatrecord/save', { ...body, content: 'mine' })).status).toBe(409);
  });

  it('when members change, the group is renamed and dissolved, then only the owner may, and each change is a system line', async () => {
    const made = await p.admin.post('/im/disgroup/chatgroupperson', {
      groupName: 'Temporary',
      personIds: [p.staff.personId],
    });
    const id = made.body.data.groupId as number;
    expect((await p.staff.post(`/im/disgroup/updat/group/name/${id}`, { groupName: 'x' })).status).toBe(403);
    expect((await p.staff.post('/im/disgroupmem/remove', { groupId: id, personIds: [p.admin.personId] })).status).toBe(
      403,
    );
    expect((await p.admin.post('/im/disgroupmem/save', { groupId: id, personIds: [p.resident.personId] })).status).toBe(
      200,
    );
    expect((await p.admin.post(`/im/disgroup/updat/group/name/${id}`, { groupName: 'Kept' })).status).toBe(200);
    expect(
      (await p.admin.post('/im/disgroupmem/remove', { groupId: id, personIds: [p.resident.personId] })).status,
    ).toBe(200);
    expect((await p.resident.post('/im/chatrecord/list', { groupId: id })).status).toBe(404);
    const lines = (await records(id)).list
      .filter((r: { type: number }) => r.type === 10)
      .map((r: { content: string }) => JSON.parse(r.content).event);
    expect(lines.sort()).toEqual(['added', 'created', 'removed', 'renamed']);
    // System lines are not unread.
    const staffRow = (await p.staff.post('/im/disgroup/list', { limit: 1000 })).body.data.list.find(
      (g: { groupId: number }) => g.groupId === id,
    );
    expect(staffRow.unread).toBe(0);
    expect((await p.staff.get(`/im/disgroup/dismiss/${id}`)).status).toBe(403);
    expect((await p.admin.get(`/im/disgroup/dismiss/${id}`)).status).toBe(200);
    expect((await p.staff.post('/im/chatrecord/list', { groupId: id })).status).toBe(404);
  });

  it('when a caller lacks im:list, then every staff call answers 403 (no token 401) and nothing is written', async () => {
    const calls = await declaredCalls(api, staffCalls());
    const rows = await rowCounts(api, TABLES);
    const lacking = await staffWithout(api, p.admin, 'im:list');
    for (const call of calls) {
      const what = `${call.method.toUpperCase()} ${call.path} (${call.permission})`;
      expect(['im:list', 'authenticated'], what).toContain(call.permission);
      expect((await makeCall(lacking, withQuery(call, groupId), groupId)).status, `staff lacking it: ${what}`).toBe(
        403,
      );
      expect((await makeCall(callerOf(api, 'no-such-token'), withQuery(call, groupId), groupId)).status, what).toBe(
        401,
      );
    }
    // Residents chat with their own token; the staff-only calls refuse them.
    for (const path of ['/im/addressbook/staff', '/im/addressbook/settings/save', '/im/chatrecord/to/work'])
      expect((await p.resident.post(path, {})).status, path).toBe(403);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });

  it("when another estate's staff use this estate's ids, then every group call answers 404 and nothing changes", async () => {
    const rows = await rowCounts(api, TABLES);
    for (const call of staffCalls()) {
      if (!call.record) continue;
      const res = await makeCall(other.admin, withQuery(call, groupId), groupId);
      expect(res.status, `${call.method.toUpperCase()} ${call.path}`).toBe(404);
    }
    expect((await other.admin.get(`/im/chat/resident/${p.resident.personId}`)).status).toBe(404);
    const staffBook = JSON.stringify((await other.admin.post('/im/addressbook/staff', {})).body.data);
    expect(staffBook).not.toContain('Sam Lee');
    const residents = JSON.stringify((await other.admin.post('/im/addressbook/residents', { limit: 100 })).body.data);
    expect(residents).not.toContain('Resident 1');
    expect(
      (
        await other.admin.post('/im/addressbook/settings/save', {
          title: 'x',
          entries: [{ kind: 2, id: p.staff.personId }],
        })
      ).status,
    ).toBe(400);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });

  it('when a member writes, then exactly the members are pushed (the sender marked read), and reading clears every tab with event 3300', async () => {
    const sockets = {
      admin: await openRealtime(api, p.admin),
      resident: await openRealtime(api, p.resident),
      neighbour: await openRealtime(api, p.neighbour),
      stranger: await openRealtime(api, other.admin),
    };
    try {
      const sent = await p.staff.post('/im/chatrecord/save', {
        groupId,
        content: 'Push check',
        clientId: 'push-check-1',
      });
      const got = await sockets.admin.waitFor((m) => m.channelType === 3 && m.content === 'Push check');
      expect(got).toMatchObject({
        groupId,
        seq: sent.body.data.seq,
        clientId: 'push-check-1',
        recordId: sent.body.data.recordId,
        fromUser: { idUser: p.staff.personId },
        group: { idGroup: groupId, groupName: 'Lift works' },
      });
      expect(got.read).toBeUndefined();
      await sockets.resident.waitFor((m) => m.channelType === 3 && m.content === 'Push check');
      expect((await p.admin.get(`/im/chatrecord/delete/unread?groupId=${groupId}`)).status).toBe(200);
      const read = await sockets.admin.waitFor((m) => m.channelType === 3300 && m.groupId === groupId);
      expect(read.cleared).toBeGreaterThan(0);
      const heard = (s: keyof typeof sockets) => sockets[s].messages.filter((m) => m.content === 'Push check');
      expect(heard('neighbour')).toEqual([]);
      expect(heard('stranger')).toEqual([]);
    } finally {
      await Promise.all(Object.values(sockets).map((s) => s.close()));
    }
  });

  it('when input is bad, then each call answers 400 in the asked language and writes nothing', async () => {
    const rows = await rowCounts(api, TABLES);
    const bad: [Session, string, object][] = [
      [p.admin, '/im/chatrecord/save', { groupId, content: '' }],
      [p.admin, '/im/chatrecord/save', { groupId, content: 'x', type: 3 }],
      [p.admin, '/im/chatrecord/save', { groupId, content: 'x', clientId: 'no spaces allowed' }],
      [p.admin, '/im/chatrecord/save', { groupId, content: '/upload/files/chat/202601/nope.png', type: 2 }],
      [p.admin, '/im/chatrecord/save', { groupId, content: 'https://evil.example/x.png', type: 2 }],
      [p.admin, '/im/disgroup/chatgroupperson', { groupName: '', personIds: [p.staff.personId] }],
      [p.admin, '/im/disgroup/chatgroupperson', { groupName: 'No members', personIds: [] }],
      [p.admin, '/im/disgroup/chatgroupperson', { groupName: 'Only me', personIds: [p.admin.personId] }],
      [p.admin, '/im/disgroupmem/save', { groupId, personIds: [999999] }],
      [p.admin, '/im/chatrecord/list', { groupId: 'abc' }],
      [p.admin, '/im/addressbook/settings/save', { title: '', entries: [] }],
      [p.admin, '/im/addressbook/settings/save', { title: 'x', entries: [{ kind: 1, id: 999999 }] }],
      [p.admin, '/im/addressbook/residents', { page: 0 }],
      [
        p.admin,
        '/im/chatrecord/to/work',
        { groupId, seq: 1, kind: 'eventOrder', name: 'x', note: 'x', houseType: 1, houseId: 1 },
      ],
    ];
    for (const [who, path, body] of bad) {
      const res = await who.post(path, body).set('lang', 'zh-CN');
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.msg, path).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });
});

describe.each(testEngines())('address book and messages to work on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let resident: Session;

  beforeAll(async () => {
    api = await startTestApi(engine);
    admin = await signIn(api, 'admin');
    resident = await signIn(api, 'resident1');
  });
  afterAll(async () => api?.close());

  it('when staff search the address book with the Pinyin switch on, then initials and full Pinyin find Chinese names; off, they do not', async () => {
    const names = async (body: object) =>
      (await admin.post('/im/addressbook/staff', body)).body.data.departments.flatMap(
        (d: { staff: { name: string }[] }) => d.staff.map((s) => s.name),
      );
    expect(await names({ key: 'zs', pinyin: true })).toContain('张三');
    expect(await names({ key: 'zhangsan', pinyin: true })).toContain('张三');
    expect(await names({ key: 'zs' })).not.toContain('张三');
    expect(await names({ key: '9000 2001' })).toContain('张三');
    const residents = await admin.post('/im/addressbook/residents', { key: 'cdw', pinyin: true, limit: 50 });
    expect(residents.body.data.list.map((r: { name: string }) => r.name)).toContain('陳大文');
    const chats = await admin.post('/im/disgroup/list', { key: 'cdw', pinyin: true, limit: 1000 });
    expect(chats.body.data.list.map((g: { groupName: string }) => g.groupName)).toContain('陳大文');
  });

  it('when the address-book settings are saved, then the resident API serves those sections in that order with the staff who can chat', async () => {
    const staffBook = (await admin.post('/im/addressbook/staff', {})).body.data;
    const office = staffBook.departments.find((d: { name: string }) => d.name === 'Management Office');
    const saved = await admin.post('/im/addressbook/settings/save', {
      title: 'Front office',
      showPhone: false,
      entries: [
        { kind: 2, id: admin.personId, title: 'Estate manager' },
        { kind: 1, id: office.departmentId },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ title: 'Front office', showPhone: false });
    const book = (await resident.get('/app/addressbook')).body.data;
    expect(book.title).toBe('Front office');
    expect(book.sections[0]).toMatchObject({
      title: 'Estate manager',
      people: [{ personId: admin.personId, tel: null }],
    });
    // The manager is in the office too, but shown once.
    expect(
      book.sections
        .flatMap((s: { people: { personId: number }[] }) => s.people.map((x) => x.personId))
        .filter((id: number) => id === admin.personId),
    ).toHaveLength(1);
    expect((await admin.get('/app/addressbook')).status).toBe(403);
  });

  it("when staff turn a resident's picture message into a work order, then it is filed in the resident's name with the picture and the chat links it", async () => {
    const { groupId } = (await resident.get(`/im/chatrecord/check/chat/${resident.personId}/${admin.personId}`)).body
      .data;
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#357' } })
      .png()
      .toBuffer();
    const upload = await api.http
      .post('/upload/uploadimage/chat')
      .set(resident.headers)
      .attach('file', png, { filename: 'light.png', contentType: 'image/png' });
    expect(upload.status).toBe(200);
    const path = upload.body.data.originalImagePath as string;
    const sent = await resident.post('/im/chatrecord/save', { groupId, type: 2, content: path });
    expect(sent.status).toBe(200);
    const houses = (await resident.get('/app/house/list')).body.data;
    const made = await admin.post('/im/chatrecord/to/work', {
      groupId,
      seq: sent.body.data.seq,
      kind: 'eventOrder',
      type: 1,
      name: 'Broken light',
      note: 'Sent in chat',
      houseType: houses[0].houseType,
      houseId: houses[0].houseId,
    });
    expect(made.status).toBe(200);
    const detail = (await admin.post(`/eventOrder/query/id/${made.body.data.id}`)).body.data;
    expect(detail).toMatchObject({ reportPersonId: resident.personId, img: path, name: 'Broken light' });
    const last = (await admin.post('/im/chatrecord/list', { groupId, limit: 1 })).body.data.list[0];
    expect(JSON.parse(last.content)).toMatchObject({ event: 'work', kind: 'eventOrder', id: made.body.data.id });
    // Not from a house that is not the sender's.
    const wrong = await admin.post('/im/chatrecord/to/work', {
      groupId,
      seq: sent.body.data.seq,
      kind: 'complaint',
      name: 'x',
      note: 'x',
      houseType: 3,
      houseId: 999999,
    });
    expect(wrong.status).toBe(400);
  });
});
