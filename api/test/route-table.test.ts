// The route table (issue 3): every route declares its access; every permission route refuses
// a token lacking that permission with 403; another tenant's administrator, calling every route
// with this estate's ids, reads none of its rows and changes none of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, endpoints } from '@pm/shared';
import type { ApiRoute } from '../src/http/define-route';
import { allModules } from '../src/server';
import { startTestApi, testEngines, type TestApi } from './kit';

const routes: ApiRoute[] = allModules(async () => true).flatMap((m) => m.routes);

/** An express path with every `:param` (and `*splat`) filled by `value`. */
const fill = (path: string, value: string | number) => path.replace(/[:*]\w+/g, String(value));

describe('route declarations', () => {
  it('when the api is assembled, then every route declares public, authenticated or a permission code of SPEC §6', () => {
    expect(routes.length).toBeGreaterThan(50);
    for (const r of routes) {
      const ok =
        r.permission === 'public' ||
        r.permission === 'authenticated' ||
        (PERMISSIONS as readonly string[]).includes(r.permission);
      expect(ok, `${r.method.toUpperCase()} ${r.path} declares "${String(r.permission)}"`).toBe(true);
      expect(r.summary.length, `${r.path} has a summary`).toBeGreaterThan(5);
    }
  });

  it('when the api is assembled, then every call declared in shared has exactly one route and every route a declaration', () => {
    const declared = Object.keys(endpoints).sort();
    const served = routes.map((r) => r.key).sort();
    expect(served).toEqual(declared);
    for (const r of routes) {
      const e = endpoints[r.key];
      expect(`${r.method.toUpperCase()} ${r.path.replace(/[:*](\w+)/g, '{$1}')}`, r.key).toBe(e.key);
      expect(r.permission).toBe(e.permission);
      expect(r.response, `${r.key} declares its answer`).toBeDefined();
    }
  });

  it('when two routes share a method and path, then that is a mistake', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('when public routes are listed, then they are exactly the sign-in, captcha, forgot-password, health, openapi, file-serving and token-batch ones', () => {
    const publicPaths = routes
      .filter((r) => r.permission === 'public')
      .map((r) => r.path)
      .sort();
    expect(publicPaths).toEqual(
      [
        '/account/check/forgetpwd/code',
        '/account/forget/password',
        '/account/forgetpwd/reset',
        '/captcha/check',
        '/captcha/puzzle',
        '/health',
        '/oauth/token',
        '/openapi.json',
        // The gateway's batch identity call (issue 34): each token in the body is its own credential.
        '/realtime/identities',
        '/upload/files/*key',
        '/upload/image',
      ].sort(),
    );
  });
});

describe.each(testEngines())('route table on %s', (engine) => {
  let api: TestApi;
  let resident: string;
  let staff: string;
  let admin: string;
  let admin2: string;
  let staffPerms: Set<string>;
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    api = await startTestApi(engine);
    [resident, staff, admin, admin2] = await Promise.all([
      api.login('resident1', 'resident123'),
      api.login('staff', 'staff123'),
      api.login('admin', 'admin123'),
      api.login('admin2', 'admin123'),
    ]);
    const accId = (await api.http.get('/auth/current/user').set(as(staff))).body.data.accountInfo.accId;
    const info = await api.http.get(`/account/info/${accId}`).set(as(staff));
    const menu = await api.http.get(`/base/sysrole/infoandmenu/${info.body.data.role.roleId}`).set(as(staff));
    staffPerms = new Set(JSON.stringify(menu.body.data).match(/[a-z]+:[a-z]+/g));
  });
  afterAll(async () => api?.close());

  it('when /openapi.json is read, then it documents every route with its permission', async () => {
    const doc = (await api.http.get('/openapi.json')).body;
    for (const r of routes) {
      const path = r.path.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)/g, '{$1}');
      const op = doc.paths?.[path]?.[r.method];
      expect(op, `${r.method} ${path} in openapi.json`).toBeTruthy();
      expect(op['x-permission']).toBe(r.permission);
    }
  });

  function call(route: ApiRoute, token: string | null, path = fill(route.path, 1), body: object = {}) {
    const req = route.method === 'get' ? api.http.get(path) : api.http.post(path).send(body);
    return token ? req.set(as(token)) : req;
  }

  it('when a call comes without a token, then every non-public route answers 401 in an envelope', async () => {
    for (const r of routes.filter((x) => x.permission !== 'public')) {
      const res = await call(r, null);
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
      expect(res.body).toMatchObject({ code: 401, msg: expect.any(String) });
    }
  });

  it('when a resident (no console permissions) calls a permission route, then it answers 403 in the asked language', async () => {
    const guarded = routes.filter((x) => x.permission !== 'public' && x.permission !== 'authenticated');
    expect(guarded.length).toBeGreaterThan(25);
    for (const r of guarded) {
      const res = await call(r, resident).set('lang', 'zh-TW');
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
      expect(res.body.code).toBe(403);
      expect(res.body.msg).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('when staff call a route whose permission their role lacks, then 403; with it, never 403', async () => {
    const guarded = routes.filter((x) => x.permission !== 'public' && x.permission !== 'authenticated');
    const lacking = guarded.filter((r) => !staffPerms.has(r.permission));
    const holding = guarded.filter((r) => staffPerms.has(r.permission));
    expect(lacking.length).toBeGreaterThan(5);
    expect(holding.length).toBeGreaterThan(5);
    for (const r of lacking) expect((await call(r, staff)).status, `${r.method} ${r.path}`).toBe(403);
    for (const r of holding) expect((await call(r, staff)).status, `${r.method} ${r.path}`).not.toBe(403);
  });

  it("when another estate's administrator calls every route with this estate's ids, then none of its rows come back or change", async () => {
    // Rows of the first estate that the second must never see or touch.
    const marker = 'Isolation marker 7f3a';
    const houses = (await api.http.get('/app/house/list').set(as(resident))).body.data;
    const filed = await api.http
      .post('/app/complain/save')
      .set(as(resident))
      .send({ name: marker, note: marker, houseType: houses[0].houseType, houseId: houses[0].houseId });
    const complainId = filed.body.data.complainId as number;
    const order = await api.http
      .post('/app/eventOrder/save')
      .set(as(resident))
      .send({ name: marker, note: marker, type: 1, houseType: houses[0].houseType, houseId: houses[0].houseId });
    const eventOrderId = order.body.data.eventOrderId as number;
    const me = (await api.http.get('/auth/current/user').set(as(admin))).body.data.accountInfo;
    const staffMe = (await api.http.get('/auth/current/user').set(as(staff))).body.data.accountInfo;
    const info = (await api.http.get(`/account/info/${me.accId}`).set(as(admin))).body.data;
    const ids = [
      complainId,
      eventOrderId,
      me.accId,
      me.personId,
      staffMe.accId,
      staffMe.personId,
      info.role.roleId,
      info.company.companyId,
      info.company.housingEstateId,
    ];
    const secrets = [marker, 'Harbour View', 'Alex Chan', 'Sam Lee'];
    const bodyWith = (id: number) => ({
      id,
      complainId: id,
      eventOrderId: id,
      accId: id,
      accIds: [id],
      personId: id,
      roleId: id,
      roleIds: [id],
      messageId: id,
      companyId: id,
      housingEstateId: id,
      content: 'intruder',
      dealNote: 'intruder',
      completeNote: 'intruder',
      name: 'intruder',
    });

    let token = admin2;
    const skip = new Set(['/oauth/token', '/auth/signOut', '/account/checkpassword']);
    for (const r of routes.filter((x) => x.permission !== 'public' && !skip.has(x.path))) {
      for (const id of ids) {
        let res = await call(r, token, fill(r.path, id), bodyWith(id));
        if (res.status === 401) {
          token = await api.login('admin2', 'admin123');
          res = await call(r, token, fill(r.path, id), bodyWith(id));
        }
        expect(res.status, `${r.method} ${r.path} with ${id}`).toBeLessThan(500);
        const text = JSON.stringify(res.body ?? '') + (res.text ?? '');
        for (const s of secrets) expect(text, `${r.method} ${fill(r.path, id)} leaked "${s}"`).not.toContain(s);
      }
    }

    // Nothing of the first estate changed.
    const detail = await api.http.post(`/complain/query/id/${complainId}`).set(as(admin));
    expect(detail.body.data).toMatchObject({ complainStatus: 1, replyCount: 0, name: marker });
    const orderDetail = await api.http.post(`/eventOrder/query/id/${eventOrderId}`).set(as(admin));
    expect(orderDetail.body.data).toMatchObject({ eventStatus: 1, replyCount: 0 });
    await api.login('admin', 'admin123');
    await api.login('staff', 'staff123');
    const after = (await api.http.get(`/account/info/${me.accId}`).set(as(admin))).body.data;
    expect(after.role).toEqual(info.role);
    expect(after.personCompany.person.name).toBe(info.personCompany.person.name);
    // Every route × nine ids: it grows with the api (about 30 s on PostgreSQL on a busy machine).
  }, 180_000);
});
