// What staff may do in calls they share with residents (issue 14 item 11): chat needs im:list
// for staff while residents chat with their own token; a staff reply's company type is the
// company's, whatever the body says; account names are unique per company (issue 35), and a
// taken one is answered without saying whose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRoute } from '../src/http/define-route';
import { allModules } from '../src/server';
import { signInAll, startTestApi, testEngines, type Session, type TestApi } from './kit';

const imRoutes: ApiRoute[] = allModules(async () => true)
  .flatMap((m) => m.routes)
  .filter((r) => r.path.startsWith('/im/'));
const fill = (path: string, value: number) => path.replace(/[:*]\w+/g, String(value));

describe.each(testEngines())('staff boundaries on %s', (engine) => {
  let api: TestApi;
  let people: Record<string, Session>;
  const call = (who: string, r: ApiRoute, id: number, body: object = {}) =>
    r.method === 'get'
      ? people[who].get(`${fill(r.path, id)}?groupId=${id}`)
      : people[who].post(fill(r.path, id), body);

  beforeAll(async () => {
    api = await startTestApi(engine);
    people = await signInAll(api, { admin: 'admin', staff: 'staff', resident: 'resident1', admin2: 'admin2' });
  });
  afterAll(async () => api?.close());

  it('when staff without im:list call any /im/* route, then 403 in their language; a resident and staff with im:list are let through', async () => {
    expect(imRoutes.length).toBeGreaterThan(10);
    const body = { groupId: 1, groupName: 'x', personIds: [people.admin.personId], content: 'hi', page: 1, limit: 10 };
    for (const r of imRoutes) {
      const refused = await call('staff', r, people.admin.personId, body).set('lang', 'zh-TW');
      expect(refused.status, `${r.method} ${r.path}`).toBe(403);
      expect(refused.body.msg).toMatch(/[\u4e00-\u9fff]/);
    }
    // The same calls as data: a resident opens a chat with the administrator and writes; the
    // administrator (im:list) reads it.
    const chat = await people.resident.get(
      `/im/chatrecord/check/chat/${people.resident.personId}/${people.admin.personId}`,
    );
    expect(chat.status).toBe(200);
    const sent = await people.resident.post('/im/chatrecord/save', {
      groupId: chat.body.data.groupId,
      content: 'The lift is stuck',
    });
    expect(sent.status).toBe(200);
    const list = await people.admin.post('/im/chatrecord/list', { groupId: chat.body.data.groupId });
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((r: { content: string }) => r.content)).toContain('The lift is stuck');
    expect((await people.resident.post('/im/chatrecord/query/total/unread')).status).toBe(200);
  });

  it('when staff reply with another companyType, then the reply carries their company’s', async () => {
    const houses = (await people.resident.get('/app/house/list')).body.data;
    const filed = await people.resident.post('/app/complain/save', {
      name: 'Bins',
      note: 'Not emptied',
      houseType: houses[0].houseType,
      houseId: houses[0].houseId,
    });
    const complainId = filed.body.data.complainId as number;
    const me = (await people.staff.get('/auth/current/user')).body.data.accountInfo;
    const info = (await people.staff.get(`/account/info/${me.accId}`)).body.data;
    const own = info.company.companyType as number;
    const reply = await people.staff.post('/complainReply/save', {
      complainId,
      content: 'On it',
      companyType: own === 1 ? 2 : 1,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.companyType).toBe(own);
    const replies = await people.staff.post(`/complainReply/query/id/${complainId}`, {});
    expect(replies.body.data.list.at(-1).companyType).toBe(own);
  });

  it("when another company's administrator picks a name this company uses, then it is theirs to use (names are unique per company), and a name taken in their own company is answered without saying whose", async () => {
    const elsewhere = await people.admin2.post('/account/update', {
      username: 'staff',
      password: 'Secret123',
      name: 'Copy',
    });
    expect(elsewhere.status).toBe(200);
    const again = await people.admin2.post('/account/update', {
      username: 'staff',
      password: 'Secret123',
      name: 'Copy 2',
    });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('This account name cannot be used, please choose another');
    expect(again.body.msg).not.toMatch(/in use|taken|exist/i);
  });
});
