// Whom a resident may open a private chat with (issue 14 item 11): the estate's staff who may chat
// (im:list) and the people sharing one of their houses. Trying ids one by one tells nothing about anyone else —
// they answer exactly like an id nobody has — and nobody else is pushed a chat-created event.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import {
  grantRolePermission,
  openSocket,
  signInAll,
  startTestApi,
  testEngines,
  type Session,
  type TestApi,
} from './kit';

describe.each(testEngines())('private chats of residents on %s', (engine) => {
  let api: TestApi;
  let people: Record<string, Session>;
  const open = (who: string, other: number) =>
    people[who].get(`/im/chatrecord/check/chat/${people[who].personId}/${other}`);

  beforeAll(async () => {
    api = await startTestApi(engine);
    people = await signInAll(api, { resident: 'resident1', stranger: 'resident5', staff: 'staff', admin: 'admin' });
  });
  afterAll(async () => api?.close());

  it('when a resident tries every person id, then only staff who chat, housemates and existing chats answer, and everyone else looks like nobody', async () => {
    // The demo staff role lacks im:list: first it is out of reach, then (granted) within it.
    expect((await open('resident', people.staff.personId)).status).toBe(404);
    await grantRolePermission(people.admin, 'STAFF', 'im:list');
    const [{ max }] = await queryRows<{ max: number }>(api.db, sql`select max(id)::int as max from person`);
    const answers = new Map<number, { status: number; msg: string }>();
    for (let id = 1; id <= max; id++) {
      if (id === people.resident.personId) continue;
      const res = await open('resident', id);
      answers.set(id, { status: res.status, msg: res.body.msg });
    }
    const reachable = await queryRows<{ id: number }>(
      api.db,
      sql`select a.person_id as id from account a join account me on me.person_id = ${people.resident.personId}
            join sys_role r on r.id = a.role_id
            where a.kind = 'staff' and a.enabled and a.housing_estate_id = me.housing_estate_id
              and (r.role_value like '%ADMIN%' or exists (select 1 from sys_role_menu rm join sys_menu m on m.id = rm.menu_id
                                                          where rm.role_id = r.id and m.perms = 'im:list'))
          union
          select theirs.person_id from person_house mine join person_house theirs
            on theirs.house_type = mine.house_type and theirs.status = 2
            and (theirs.unit_id = mine.unit_id or theirs.car_space_id = mine.car_space_id or theirs.shop_id = mine.shop_id)
          where mine.person_id = ${people.resident.personId} and mine.status = 2 and theirs.person_id <> ${people.resident.personId}
          union
          select y.person_id from im_group g join im_group_member x on x.group_id = g.id and x.person_id = ${people.resident.personId}
            join im_group_member y on y.group_id = g.id and y.person_id <> ${people.resident.personId}
          where g.group_type = 1`,
    );
    const expected = new Set(reachable.map((r) => r.id));
    const answered = [...answers].filter(([, a]) => a.status === 200).map(([id]) => id);
    expect(answered.sort((x, y) => x - y)).toEqual([...expected].sort((x, y) => x - y));
    expect(answered).toContain(people.staff.personId);
    // Everyone else — residents of the estate, people of another estate — answers like an id nobody has.
    const nobody = await open('resident', 2_000_000);
    expect(nobody.status).toBe(404);
    for (const [id, a] of answers)
      if (!expected.has(id)) expect({ id, ...a }).toEqual({ id, status: 404, msg: nobody.body.msg });
  });

  it('when a resident opens a chat with someone they have no reason to talk to, then that person is not told', async () => {
    const socket = await openSocket(api.url, people.stranger.token, people.stranger.personId);
    try {
      const res = await open('resident', people.stranger.personId);
      expect(res.status).toBe(404);
      const [{ n }] = await queryRows<{ n: number }>(
        api.db,
        sql`select count(*)::int as n from im_group g join im_group_member x on x.group_id = g.id and x.person_id = ${people.resident.personId}
            join im_group_member y on y.group_id = g.id and y.person_id = ${people.stranger.personId} where g.group_type = 1`,
      );
      expect(n).toBe(0);
      // Staff may still open the chat, and then the resident can answer in it.
      const fromStaff = await open('staff', people.stranger.personId);
      expect(fromStaff.status).toBe(200);
      await socket.waitFor((m) => m.channelType === 3100 && m.groupId === fromStaff.body.data.groupId);
      expect(socket.messages.filter((m) => m.channelType === 3100)).toHaveLength(1);
    } finally {
      await socket.close();
    }
  });

  it('when a resident makes a group or adds members, then only people within reach can be named, and the others are not told', async () => {
    const post = (path: string, body: object) => people.resident.post(path, body);
    const socket = await openSocket(api.url, people.stranger.token, people.stranger.personId);
    try {
      const refused = await post('/im/disgroup/chatgroupperson', {
        groupName: 'Lift committee',
        personIds: [people.staff.personId, people.stranger.personId],
      });
      expect(refused.status).toBe(404);
      const made = await post('/im/disgroup/chatgroupperson', {
        groupName: 'Lift committee',
        personIds: [people.staff.personId],
      });
      expect(made.status).toBe(200);
      const added = await post('/im/disgroupmem/save', {
        groupId: made.body.data.groupId,
        personIds: [people.stranger.personId],
      });
      expect(added.status).toBe(404);
      const members = await queryRows<{ person_id: number }>(
        api.db,
        sql`select person_id from im_group_member where group_id = ${made.body.data.groupId} and quit_at is null`,
      );
      expect(members.map((m) => m.person_id).sort()).toEqual([people.resident.personId, people.staff.personId].sort());
      await new Promise((r) => setTimeout(r, 200));
      expect(socket.messages.filter((m) => m.channelType === 3200 || m.channelType === 4)).toEqual([]);
    } finally {
      await socket.close();
    }
  });
});
