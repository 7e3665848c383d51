// The conversation list read from its prepared, packed statement (issue 31, seventh pass): its
// rows must give, byte for byte, the JSON the list gave before (19 typed columns mapped row by row),
// for every filter, page and plan, on both engines: keys,
// Pinyin keys, the groupType filter, paging, a dismissed group, a left group, a private chat
// without peer, a group without records, unread clamped at 0, names and texts that need escaping.
// Eighth pass: a list longer than a piece (64 rows) answered over HTTP, written piece by piece and
// compressed at once, is the same bytes (brotli, gzip or plain).
// The last two budgets: each row's JSON is kept by its columns (JsonMemo); a row read again after
// any of its columns changed is the new row, never the kept one.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationListPlan, listConversations, type ConversationFilter } from '../src/modules/im/chat.repository';
import { refreshPinyin } from '../src/modules/im/address-book.repository';
import { pinyinQuery } from '../src/modules/im/pinyin';
import { grantRolePermission, signInAll, startTestApi, testEngines, type Session, type TestApi } from './kit';
import { listConversationsBefore } from './kit/conversation-list-before';

describe.each(testEngines())('the conversation list as JSON text on %s', (engine) => {
  let api: TestApi;
  let people: Record<string, Session>;
  let tenant: { companyId: number; housingEstateId: number };
  const groups: Record<string, number> = {};

  beforeAll(async () => {
    api = await startTestApi(engine);
    people = await signInAll(api, { admin: 'admin', staff: 'staff', resident: 'resident1', neighbour: 'resident2' });
    await grantRolePermission(people.admin, 'STAFF', 'im:list');
    [tenant] = (
      (await api.db.execute(
        sql`select company_id as "companyId", housing_estate_id as "housingEstateId" from person where id = ${people.admin.personId}`,
      )) as unknown as { rows: { companyId: number; housingEstateId: number }[] }
    ).rows;
    const { admin, staff, resident, neighbour } = people;
    const privateWith = async (a: Session, b: Session) =>
      (await a.get(`/im/chatrecord/check/chat/${a.personId}/${b.personId}`)).body.data.groupId as number;
    const send = async (who: Session, groupId: number, content: string) =>
      expect((await who.post('/im/chatrecord/save', { groupId, content })).status).toBe(200);
    const group = async (groupName: string, members: Session[]) =>
      (await admin.post('/im/disgroup/chatgroupperson', { groupName, personIds: members.map((m) => m.personId) })).body
        .data.groupId as number;

    // A resident (an approved house) and staff; texts and names that need escaping.
    groups.resident = await privateWith(resident, admin);
    await send(resident, groups.resident, 'He said "hi" \\ and left\nline two\ttab 😀 \u2028 </script>');
    groups.staff = await privateWith(admin, staff);
    await send(admin, groups.staff, 'Morning');
    groups.group = await group('Block "A" 张三的群', [staff, neighbour]);
    await send(staff, groups.group, 'Water off at 10');
    const work = await admin.post('/im/disgroup/save/work/group/member', {
      groupName: 'Repairs',
      personIds: [staff.personId],
    });
    groups.work = work.body.data.groupId as number;
    groups.dismissed = await group('To dissolve', [staff]);
    expect((await admin.get(`/im/disgroup/dismiss/${groups.dismissed}`)).status).toBe(200);
    groups.left = await group('To leave', [staff, neighbour]);
    expect((await admin.post(`/im/disgroupmem/quit/disgroup/${groups.left}`)).status).toBe(200);
    groups.neighbour = await privateWith(admin, neighbour);
    // A private chat without peer (the other one found among the members), unread below 0
    // (clamped), an avatar, and a group without any record and without an update time.
    await api.db.execute(sql`update im_group set peer_person_id = null where id = ${groups.neighbour}`);
    await api.db.execute(
      sql`update im_group_member set read_count = read_count + 5 where group_id = ${groups.staff} and person_id = ${admin.personId}`,
    );
    await api.db.execute(
      sql`update person set images = ${JSON.stringify([{ url: '/files/a "b".png' }, { url: '/files/c.png' }])}::jsonb where id = ${staff.personId}`,
    );
    const [{ id }] = (
      (await api.db
        .execute(sql`insert into im_group (company_id, housing_estate_id, group_type, name, owner_person_id, member_count)
        values (${tenant.companyId}, ${tenant.housingEstateId}, 2, 'Silent', ${admin.personId}, 1) returning id`)) as unknown as {
        rows: { id: number }[];
      }
    ).rows;
    groups.silent = id;
    await api.db.execute(sql`update im_group set updated_at = null where id = ${id}`);
    await api.db.execute(sql`insert into im_group_member (group_id, person_id) values (${id}, ${admin.personId})`);
    await refreshPinyin(api.db, tenant);
  });
  afterAll(async () => api?.close());

  const filters: ConversationFilter[] = [
    {},
    { groupType: 1 },
    { groupType: 2 },
    { key: 'Block' },
    { key: '"A"' },
    { key: 'zs', pinyinKey: pinyinQuery('zs') },
    { key: 'zhangsan', pinyinKey: pinyinQuery('zhangsan') },
    { key: 'no such name' },
  ];

  it('when the list is read with any filter, page or plan, then its JSON is what the list gave before, byte for byte', async () => {
    const chosen = conversationListPlan.lookupBelowShare;
    let compared = 0;
    try {
      for (const share of [null, 1_000_000]) {
        conversationListPlan.lookupBelowShare = share;
        for (const who of ['admin', 'staff', 'resident'])
          for (const f of filters)
            for (const [limit, offset] of [
              [1000, 0],
              [2, 0],
              [2, 2],
              [2, 4],
              [2, 100],
            ]) {
              const me = people[who].personId;
              const before = await listConversationsBefore(api.db, tenant, me, f, limit, offset);
              const after = await listConversations(api.db, tenant, me, f, limit, offset);
              expect(after.total).toBe(before.total);
              expect(JSON.stringify(after.rows)).toBe(JSON.stringify(before.rows));
              compared += before.rows.length;
            }
      }
    } finally {
      conversationListPlan.lookupBelowShare = chosen;
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('when the admin lists the chats, then each case reads as it means: no dissolved or left group, unread at 0, the peer found, no record', async () => {
    const res = await people.admin.post('/im/disgroup/list', { page: 1, limit: 1000 });
    expect(res.status).toBe(200);
    const list = res.body.data.list as {
      groupId: number;
      groupName: string;
      unread: number;
      lastRecord: { content: string } | null;
      members: { personId: number; images: { url: string }[] }[];
      other: { personId: number; resident: boolean } | null;
      updatedAt: string | null;
      isWorkGroup: boolean;
    }[];
    const row = (name: string) => list.find((r) => r.groupId === groups[name]);
    expect(row('dismissed')).toBeUndefined();
    expect(row('left')).toBeUndefined();
    expect(res.body.data.total).toBe(list.length);
    expect(row('resident')?.other).toEqual({ personId: people.resident.personId, resident: true });
    expect(row('resident')?.lastRecord?.content).toBe('He said "hi" \\ and left\nline two\ttab 😀 \u2028 </script>');
    expect(row('staff')?.other).toEqual({ personId: people.staff.personId, resident: false });
    expect(row('staff')?.unread).toBe(0);
    expect(row('staff')?.members[0].images).toEqual([{ url: '/files/a "b".png' }, { url: '/files/c.png' }]);
    expect(row('neighbour')?.other?.personId).toBe(people.neighbour.personId);
    expect(row('group')?.groupName).toBe('Block "A" 张三的群');
    expect(row('group')?.other).toBeNull();
    expect(row('work')?.isWorkGroup).toBe(true);
    expect(row('silent')).toMatchObject({ lastRecord: null, updatedAt: null, members: [], other: null });
    // The answer's bytes are the rows' JSON as before.
    const before = await listConversationsBefore(api.db, tenant, people.admin.personId, {}, 1000, 0);
    expect(list).toEqual(JSON.parse(JSON.stringify(before.rows)));
  });
  it('when a list of 300 conversations is answered over HTTP, then it is the envelope of the rows as before, in brotli, gzip or as it is', async () => {
    const { admin } = people;
    const { companyId: c, housingEstateId: e } = tenant;
    // 300 private chats of the admin with people whose names need escaping or are beyond Latin-1.
    await api.db.execute(sql`
      with p as (
        insert into person (company_id, housing_estate_id, name)
        select ${c}, ${e}, case when g % 3 = 0 then '陳 "' || g || '" \\' else 'Long list ' || g end from generate_series(1, 300) g
        returning id),
      g as (
        insert into im_group (company_id, housing_estate_id, group_type, owner_person_id, peer_person_id, last_seq, message_count,
          member_count, updated_at, last_type, last_content, last_from_person_id, last_at)
        select ${c}, ${e}, 1, p.id, ${admin.personId}, 1, 1, 2, now() - p.id * interval '1 second', 1, 'Hi 😀 ' || p.id, p.id, now()
        from p returning id, owner_person_id)
      insert into im_group_member (group_id, person_id, read_seq, read_count)
      select id, owner_person_id, 1, 1 from g union all select id, ${admin.personId}, 0, 0 from g`);
    const before = await listConversationsBefore(api.db, tenant, admin.personId, {}, 1000, 0);
    expect(before.rows.length).toBeGreaterThan(300);
    const body = JSON.stringify({ page: 1, limit: 1000 });
    const answer = (acceptEncoding?: string) =>
      new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>((resolve, reject) => {
        const req = request(
          `${api.url}/im/disgroup/list`,
          {
            method: 'POST',
            headers: {
              ...admin.headers,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              ...(acceptEncoding && { 'accept-encoding': acceptEncoding }),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const plain = await answer();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(plain.bytes.length);
    const envelope = JSON.parse(plain.bytes.toString('utf8')) as { data: Record<string, unknown> };
    expect(plain.bytes.toString('utf8')).toBe(
      JSON.stringify({ ...envelope, data: { ...envelope.data, list: before.rows, total: before.total } }),
    );
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
    ] as const) {
      const packed = await answer(accept);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(Number(packed.headers['content-length'])).toBe(packed.bytes.length);
      expect(packed.bytes.length).toBeLessThan(plain.bytes.length / 4);
      expect(decode(packed.bytes).equals(plain.bytes)).toBe(true);
    }
  });

  it('when any column of a row read before changes, then the list read again shows the change, never the kept row', async () => {
    const { admin, staff, resident } = people;
    const compare = async () => {
      const before = await listConversationsBefore(api.db, tenant, admin.personId, {}, 1000, 0);
      const after = await listConversations(api.db, tenant, admin.personId, {}, 1000, 0);
      expect(JSON.stringify(after.rows)).toBe(JSON.stringify(before.rows));
      return before.rows;
    };
    await compare(); // the rows are kept now
    const changes = [
      // Columns outside the packed numbers: the other person's name and avatar, the last sender's name,
      // the last text (to the text "null"), times moved by a millisecond.
      sql`update person set name = 'Renamed "staff" 张' where id = ${staff.personId}`,
      sql`update person set images = ${JSON.stringify([{ url: '/files/d.png' }])}::jsonb where id = ${staff.personId}`,
      sql`update im_group set last_content = 'null' where id = ${groups.group}`,
      sql`update im_group set last_at = last_at + interval '1 millisecond' where id = ${groups.resident}`,
      sql`update im_group set updated_at = updated_at + interval '1 millisecond' where id = ${groups.staff}`,
      // In the packed numbers: the resident flag and the unread count.
      sql`update person_house set status = 1 where person_id = ${resident.personId}`,
      sql`update im_group_member set read_count = read_count - 1 where group_id = ${groups.group} and person_id = ${admin.personId}`,
    ];
    let seen = JSON.stringify(await compare());
    for (const [i, change] of changes.entries()) {
      await api.db.execute(change);
      const now = JSON.stringify(await compare());
      expect(now === seen, `change ${i} shows`).toBe(false);
      seen = now;
    }
  });
});
