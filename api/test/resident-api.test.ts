// The resident API beyond complaints (issue 4, DESIGN §5): SOS help calls, disaster-warning
// answers, announcement read and vote, joining with an invite code — each with the messages
// and pushes a real app's call triggers — and the console's message calls that show them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { openSocket, signIn, signInAll, startTestApi, testEngines, type Session, type TestApi } from './kit';

describe.each(testEngines())('resident API on %s', (engine) => {
  let api: TestApi;
  let people: Record<string, Session>;
  const unread = async (who: string, type: number) =>
    (await people[who].post('/base/message/unRead', { messageTypeList: [type] })).body.data.total as number;

  beforeAll(async () => {
    api = await startTestApi(engine);
    people = await signInAll(api, { admin: 'admin', staff: 'staff', resident: 'resident1', newcomer: 'resident3' });
  });
  afterAll(async () => api?.close());

  it('when a resident calls SOS, then staff with disasterwarn:list get alarm 7 live and in their messages; View marks it read', async () => {
    const adminSocket = await openSocket(api.url, people.admin.token, people.admin.personId);
    try {
      const before = await unread('admin', 7);
      const houses = (await people.resident.get('/app/house/list')).body.data;
      const res = await people.resident.post('/app/sos/help', {
        houseType: houses[0].houseType,
        houseId: houses[0].houseId,
        position: 'Garden',
      });
      expect(res.status).toBe(200);
      const pushed = await adminSocket.waitFor(
        (m) => m.channelType === 10 && m.messageType === 7 && m.dataId === res.body.data.sosHelpId,
      );
      expect(pushed.messageId).toEqual(expect.any(Number));
      expect(await unread('admin', 7)).toBe(before + 1);

      const list = await people.admin.post('/base/message/list', {
        page: 1,
        limit: 1000,
        messageTypeList: [7],
        unReadStatus: 0,
      });
      const row = list.body.data.list.find((m: { messageId: number }) => m.messageId === pushed.messageId);
      expect(row).toMatchObject({ messageType: 7, position: 'Garden', personTriggerId: people.resident.personId });
      expect(row.personTrigger.name).toBeTruthy();

      expect((await people.admin.post('/base/message/hasRead', { messageId: pushed.messageId })).status).toBe(200);
      expect(await unread('admin', 7)).toBe(before);
      // The reader's tabs learn it from a numbered counters change; reading it again changes nothing.
      const read = await adminSocket.waitFor((m) => m.channelType === 3900);
      expect(read).toMatchObject({ unreadByType: { '7': -1 } });
      expect((await people.admin.post('/base/message/hasRead', { messageId: pushed.messageId })).status).toBe(200);
      // Someone else's message cannot be marked read by another person.
      expect((await people.staff.post('/base/message/hasRead', { messageId: pushed.messageId })).status).toBe(404);
      // A house that is not the resident's is refused.
      expect(
        (await people.resident.post('/app/sos/help', { houseType: 1, houseId: 999999 })).status,
      ).toBeGreaterThanOrEqual(400);
    } finally {
      await adminSocket.close();
    }
  });

  it('when a resident answers a disaster warning they received, then the answer is stored; others and bad answers are refused', async () => {
    const [received] = await queryRows<{ id: number }>(
      api.db,
      sql`select dw.id from disaster_warn dw join disaster_warn_person p on p.disaster_warn_id = dw.id
          where p.person_id = ${people.resident.personId} and not dw.revoked order by dw.id limit 1`,
    );
    expect(received).toBeTruthy();
    const res = await people.resident.post('/app/disaster/reply', { disasterWarnId: received.id, reply: 1 });
    expect(res.status).toBe(200);
    const [stored] = await queryRows<{ reply: number; reply_time: unknown }>(
      api.db,
      sql`select reply, reply_time from disaster_warn_person where disaster_warn_id = ${received.id} and person_id = ${people.resident.personId}`,
    );
    expect(stored.reply).toBe(1);
    expect(stored.reply_time).toBeTruthy();
    expect((await people.resident.post('/app/disaster/reply', { disasterWarnId: received.id, reply: 9 })).status).toBe(
      400,
    );
    // A console account is not a resident; a warning the resident did not receive is not theirs to answer.
    expect((await people.staff.post('/app/disaster/reply', { disasterWarnId: received.id, reply: 1 })).status).toBe(
      403,
    );
    const [notTheirs] = await queryRows<{ id: number; username: string }>(
      api.db,
      sql`select dw.id, a.username from disaster_warn dw join account a on a.housing_estate_id = dw.housing_estate_id and a.kind = 'resident'
          where not dw.revoked and not exists (select 1 from disaster_warn_person p where p.disaster_warn_id = dw.id and p.person_id = a.person_id)
          limit 1`,
    );
    if (notTheirs) {
      const neighbour = await signIn(api, { username: notTheirs.username, password: 'resident123' });
      const res2 = await neighbour.post('/app/disaster/reply', { disasterWarnId: notTheirs.id, reply: 1 });
      expect(res2.status).toBe(404);
    }
    expect((await people.resident.post('/app/disaster/reply', { disasterWarnId: 2_000_000, reply: 1 })).status).toBe(
      404,
    );
    const [revoked] = await queryRows<{ id: number }>(api.db, sql`select id from disaster_warn where revoked limit 1`);
    if (revoked)
      expect((await people.resident.post('/app/disaster/reply', { disasterWarnId: revoked.id, reply: 1 })).status).toBe(
        409,
      );
  });

  it('when a resident reads and votes, then the vote replaces the earlier one, single choice allows one option, other estates are hidden', async () => {
    const votes = await queryRows<{ id: number; selection_mode: number; estate: number }>(
      api.db,
      sql`select id, selection_mode, housing_estate_id as estate from announcement where type = 3 and not revoked order by id`,
    );
    const single = votes.find((v) => v.estate === 1 && v.selection_mode === 1)!;
    const elsewhere = votes.find((v) => v.estate !== 1)!;
    const options = await queryRows<{ id: number }>(
      api.db,
      sql`select id from announcement_option where announcement_id = ${single.id} order by sort, id`,
    );
    expect(options.length).toBeGreaterThanOrEqual(2);

    expect((await people.resident.post('/app/announcement/read', { id: single.id })).status).toBe(200);
    expect(
      (await people.resident.post('/app/announcement/vote', { id: single.id, optionIds: [options[0].id] })).status,
    ).toBe(200);
    expect(
      (await people.resident.post('/app/announcement/vote', { id: single.id, optionIds: [options[1].id] })).status,
    ).toBe(200);
    const mine = await queryRows<{ option_id: number }>(
      api.db,
      sql`select option_id from announcement_vote where announcement_id = ${single.id} and person_id = ${people.resident.personId}`,
    );
    expect(mine.map((r) => r.option_id)).toEqual([options[1].id]);
    const both = await people.resident.post('/app/announcement/vote', {
      id: single.id,
      optionIds: [options[0].id, options[1].id],
    });
    expect(both.status).toBe(400);
    expect(both.body.msg).toBeTruthy();
    expect((await people.resident.post('/app/announcement/read', { id: elsewhere.id })).status).toBe(404);
    expect((await people.resident.post('/app/announcement/vote', { id: elsewhere.id, optionIds: [1] })).status).toBe(
      404,
    );
  });

  it('when a newcomer joins with an invite code, then the request waits for review, the house staff get message 27 on channel 12 and a second join answers 409', async () => {
    const [unit] = await queryRows<{ id: number; invite_code: string }>(
      api.db,
      sql`select u.id, u.invite_code from unit u where u.housing_estate_id = 1
          and not exists (select 1 from person_house ph where ph.unit_id = u.id and ph.person_id = ${people.newcomer.personId}) order by u.id desc limit 1`,
    );
    const adminSocket = await openSocket(api.url, people.admin.token, people.admin.personId);
    try {
      const before = await unread('admin', 27);
      const res = await people.newcomer.post('/app/personhouse/join', { inviteCode: unit.invite_code, identity: 2 });
      expect(res.status).toBe(200);
      // Issue 14: every join is reviewed first; nobody becomes a member by a code alone.
      expect(res.body.data).toMatchObject({ status: 1, houseType: 1, houseId: unit.id });
      await adminSocket.waitFor((m) => m.channelType === 12 && m.messageType === 27);
      expect(await unread('admin', 27)).toBe(before + 1);
      const houseKeys = async () =>
        (
          (await people.newcomer.get('/app/house/list')).body.data as {
            houseId: number;
            houseType: number;
          }[]
        ).map((h) => `${h.houseType}:${h.houseId}`);
      expect(await houseKeys()).not.toContain(`1:${unit.id}`);
      expect(
        (await people.newcomer.post('/app/personhouse/join', { inviteCode: unit.invite_code, identity: 2 })).status,
      ).toBe(409);
      const bad = await people.newcomer.post('/app/personhouse/join', { inviteCode: 'NOPE0000', identity: 2 });
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toBeTruthy();
      // Once the estate's staff approve, the house is the newcomer's.
      const approved = await people.admin.post('/base/personhouse/review', {
        personHouseId: res.body.data.personHouseId,
        status: 2,
      });
      expect(approved.status).toBe(200);
      expect(await houseKeys()).toContain(`1:${unit.id}`);
    } finally {
      await adminSocket.close();
    }
  });

  it('when a console account calls the resident API, then the resident-only calls refuse it', async () => {
    const res = await people.admin.get('/app/house/list');
    expect(res.status).toBeLessThan(500);
    if (res.status === 200) expect(res.body.data).toEqual([]);
  });
});
