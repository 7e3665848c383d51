// What staff may do in calls they share with residents (issue 14 item 11): chat needs im:list
// for staff while residents chat with their own token; a staff reply's company type is the
// company's, whatever the body says; a taken account name is answered without saying whose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiRoute } from '../src/http/define-route';
import { allModules } from '../src/server';
import { startTestApi, testEngines, type TestApi } from './start-test-api';

const imRoutes: ApiRoute[] = allModules(async () => true)
  .flatMap((m) => m.routes)
  .filter((r) => r.path.startsWith('/im/'));
const fill = (path: string, value: number) => path.replace(/[:*]\w+/g, String(value));

describe.each(testEngines())('staff boundaries on %s', (engine) => {
  let api: TestApi;
  const tokens: Record<string, string> = {};
  const pid: Record<string, number> = {};
  const as = (who: string) => ({ Authorization: `Bearer ${tokens[who]}` });
  const call = (who: string, r: ApiRoute, id: number, body: object = {}) =>
    r.method === 'get'
      ? api.http.get(`${fill(r.path, id)}?groupId=${id}`).set(as(who))
      : api.http.post(fill(r.path, id)).set(as(who)).send(body);

  beforeAll(async () => {
    api = await startTestApi(engine);
    for (const [who, user, password] of [
      ['admin', 'admin', 'admin123'],
      ['staff', 'staff', 'staff123'],
      ['resident', 'resident1', 'resident123'],
      ['admin2', 'admin2', 'admin123'],
    ]) {
      ({ token: tokens[who], personId: pid[who] } = await api.signIn(user, password));
    }
  });
  afterAll(async () => api?.close());

  it('when staff without im:list call any /im/* route, then 403 in their language; a resident and staff with im:list are let through', async () => {
    expect(imRoutes.length).toBeGreaterThan(10);
    const body = { groupId: 1, groupName: 'x', personIds: [pid.admin], content: 'hi', page: 1, limit: 10 };
    for (const r of imRoutes) {
      const refused = await call('staff', r, pid.admin, body).set('lang', 'zh-TW');
      expect(refused.status, `${r.method} ${r.path}`).toBe(403);
      expect(refused.body.msg).toMatch(/[\u4e00-\u9fff]/);
    }
    // The same calls as data: a resident opens a chat with the administrator and writes; the
    // administrator (im:list) reads it.
    const chat = await api.http.get(`/im/chatrecord/check/chat/${pid.resident}/${pid.admin}`).set(as('resident'));
    expect(chat.status).toBe(200);
    const sent = await api.http
      .post('/im/chatrecord/save')
      .set(as('resident'))
      .send({ groupId: chat.body.data.groupId, content: 'The lift is stuck' });
    expect(sent.status).toBe(200);
    const list = await api.http.post('/im/chatrecord/list').set(as('admin')).send({ groupId: chat.body.data.groupId });
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((r: { content: string }) => r.content)).toContain('The lift is stuck');
    expect((await api.http.post('/im/chatrecord/query/total/unread').set(as('resident'))).status).toBe(200);
  });

  it('when staff reply with another companyType, then the reply carries their company’s', async () => {
    const houses = (await api.http.get('/app/house/list').set(as('resident'))).body.data;
    const filed = await api.http
      .post('/app/complain/save')
      .set(as('resident'))
      .send({ name: 'Bins', note: 'Not emptied', houseType: houses[0].houseType, houseId: houses[0].houseId });
    const complainId = filed.body.data.complainId as number;
    const me = (await api.http.get('/auth/current/user').set(as('staff'))).body.data.accountInfo;
    const info = (await api.http.get(`/account/info/${me.accId}`).set(as('staff'))).body.data;
    const own = info.company.companyType as number;
    const reply = await api.http
      .post('/complainReply/save')
      .set(as('staff'))
      .send({ complainId, content: 'On it', companyType: own === 1 ? 2 : 1 });
    expect(reply.status).toBe(200);
    expect(reply.body.data.companyType).toBe(own);
    const replies = await api.http.post(`/complainReply/query/id/${complainId}`).set(as('staff')).send({});
    expect(replies.body.data.list.at(-1).companyType).toBe(own);
  });

  it("when another company's administrator picks a name this company uses, then the answer does not say it is taken", async () => {
    const elsewhere = await api.http
      .post('/account/update')
      .set(as('admin2'))
      .send({ username: 'staff', password: 'Secret123', name: 'Copy' });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.msg).toBe('This account name cannot be used, please choose another');
    expect(elsewhere.body.msg).not.toMatch(/in use|taken|exist/i);
    const here = await api.http
      .post('/account/update')
      .set(as('admin'))
      .send({ username: 'admin2', password: 'Secret123', name: 'Copy' });
    expect(here.body.msg).toBe(elsewhere.body.msg);
  });
});
