// The read-only wall screen (issue 22): the demo account `wall` (role "Wall screen", only
// wall:view) reads its feed, hears alarms and work orders live, and can change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callerOf,
  openRealtime,
  otherTenant,
  rowCounts,
  signIn,
  signInResident,
  staffWithout,
  startTestApi,
  testEngines,
  type ResidentSession,
  type Session,
  type TestApi,
} from './kit';

const TABLES = ['sos_help', 'disaster_warn', 'complain', 'event_order', 'sys_role', 'account'] as const;

describe.each(testEngines())('wall screen on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let wall: Session;
  let resident: ResidentSession;
  let other: { admin: Session; staff: Session };

  const sos = async (position: string): Promise<number> => {
    const res = await resident.post('/app/sos/help', { ...resident.house, position });
    expect(res.status).toBe(200);
    return res.body.data.sosHelpId as number;
  };
  const feed = async (who: Session = wall) => {
    const res = await who.get('/wall/feed');
    expect(res.status).toBe(200);
    return res.body.data as {
      sos: { id: number; state: string; personName: string | null; createdAt: string }[];
      sosTotal: number;
      warnings: { id: number; content: string }[];
      complaints: { untreated: number; processing: number };
      eventOrders: { untreated: number; processing: number };
      readAt: string;
    };
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, wall, resident, other] = await Promise.all([
      signIn(api, 'admin'),
      signIn(api, 'wall'),
      signInResident(api),
      otherTenant(api),
    ]);
  });
  afterAll(async () => api?.close());

  it('when the wall account signs in, then its role is "Wall screen" and its menus carry only wall:view and the duty board\'s checkin:view', async () => {
    const roles = (await admin.post('/base/sysrole/page', { page: 1, limit: 100 })).body.data.list as {
      roleId: number;
      roleName: string;
    }[];
    const role = roles.find((r) => r.roleName === 'Wall screen');
    expect(role).toBeDefined();
    const info = await wall.get(`/base/sysrole/infoandmenu/${role!.roleId}`);
    expect(info.status).toBe(200);
    expect((info.body.data.menus as { perms: string }[]).map((m) => m.perms).sort()).toEqual([
      'checkin:view',
      'wall:view',
    ]);
  });

  it('when the wall account opens the check-in duty board, then it reads it (issue 32) but may not punch, change a rule or review a make-up', async () => {
    const board = await wall.get('/base/checkin/board');
    expect(board.status, JSON.stringify(board.body)).toBe(200);
    expect(board.body.data.rows.length).toBeGreaterThan(0);
    const rows = await rowCounts(api, ['checkin_punch', 'checkin_rule_version', 'checkin_makeup']);
    const writes: [path: string, body: object][] = [
      ['/app/checkin/punch', { kind: 'in', lat: 22.3, lng: 114.1, deviceId: 'wall', idempotencyKey: 'wall-1' }],
      ['/base/checkin/holiday/save', { day: '2099-01-01', name: 'x' }],
      ['/base/checkin/makeup/review', { makeupId: 1, approve: true }],
    ];
    for (const [path, body] of writes) expect((await wall.post(path, body)).status, path).toBe(403);
    expect(await rowCounts(api, ['checkin_punch', 'checkin_rule_version', 'checkin_makeup'])).toEqual(rows);
  });

  it('when a resident calls SOS, files a complaint and a work order, then the feed lists the call first (unacknowledged) and the counts move', async () => {
    const before = await feed();
    const id = await sos('Wall feed check');
    const complaint = await resident.post('/app/complain/save', { ...resident.house, name: 'Wall', note: 'Noise' });
    expect(complaint.status).toBe(200);
    const order = await resident.post('/app/eventOrder/save', {
      ...resident.house,
      name: 'Wall',
      note: 'Lift',
      type: 1,
    });
    expect(order.status).toBe(200);
    const after = await feed();
    const call = after.sos.find((c) => c.id === id);
    expect(call).toMatchObject({ state: 'open', position: 'Wall feed check' });
    expect(call?.personName).toBeTruthy();
    expect(after.sos.findIndex((c) => c.state !== 'open')).not.toBe(0);
    expect(after.complaints.untreated).toBe(before.complaints.untreated + 1);
    expect(after.eventOrders.untreated).toBe(before.eventOrders.untreated + 1);
    expect(after.sosTotal).toBe(before.sosTotal + 1);

    // Acknowledged calls follow the unacknowledged ones; a revoked warning leaves the wall.
    expect((await admin.post(`/disaster/sos/${id}/acknowledge`)).status).toBe(200);
    const warn = await admin.post('/disaster/warn/save', { type: 4, content: 'Wall typhoon check' });
    expect(warn.status).toBe(200);
    const acked = await feed();
    const states = acked.sos.map((c) => c.state);
    expect(states.indexOf('acknowledged')).toBeGreaterThanOrEqual(states.lastIndexOf('open') + 1);
    expect(acked.warnings.map((w) => w.content)).toContain('Wall typhoon check');
    expect((await admin.post(`/disaster/warn/${warn.body.data.id}/revoke`)).status).toBe(200);
    expect((await feed()).warnings.map((w) => w.content)).not.toContain('Wall typhoon check');
  });

  it('when the wall account calls any staff list or write call, then it answers 403 and nothing changes', async () => {
    const id = await sos('Wall may not acknowledge');
    const rows = await rowCounts(api, TABLES);
    const calls: [method: 'get' | 'post', path: string, body?: object][] = [
      ['get', '/disaster/sos/open'],
      ['post', `/disaster/sos/${id}/acknowledge`],
      ['post', `/disaster/sos/${id}/close`, { note: 'x' }],
      ['post', '/disaster/warn/save', { type: 1, content: 'Fire drill' }],
      ['post', '/disaster/warn/page', { page: 1, limit: 10 }],
      ['post', '/complain/query/list', { page: 1, limit: 10 }],
      ['post', '/eventOrder/query/list', { page: 1, limit: 10 }],
      ['post', '/base/sysrole/saveorupdate', { roleName: 'x', roleValue: 'X', menuIds: [] }],
      ['post', '/account/update', { username: 'wallmade', password: 'Secret123', name: 'x', roleId: 1 }],
      ['post', '/announcement/save', { title: 'x', content: 'x' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await wall.call(method, path, body);
      expect([403, 404], `${method} ${path}`).toContain(res.status);
      if (res.status === 404) continue;
      expect(res.body.msg, `${method} ${path}`).toBeTruthy();
    }
    const zh = await wall.post(`/disaster/sos/${id}/acknowledge`).set('lang', 'zh-CN');
    expect(zh.status).toBe(403);
    expect(zh.body.msg).toMatch(/[\u4e00-\u9fff]/);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
    expect((await admin.get(`/disaster/sos/${id}`)).body.data.state).toBe('open');
  });

  it('when a staff account lacks wall:view, a resident calls, or no token, then the feed answers 403 / 403 / 401', async () => {
    const blind = await staffWithout(api, admin, 'wall:view');
    expect((await blind.get('/wall/feed')).status).toBe(403);
    expect((await resident.get('/wall/feed')).status).toBe(403);
    expect((await callerOf(api, 'no-such-token').get('/wall/feed')).status).toBe(401);
  });

  it("when another estate's administrator reads the feed, then this estate's calls are not in it", async () => {
    const id = await sos('Wall tenant isolation');
    const theirs = await feed(other.admin);
    expect(theirs.sos.map((c) => c.id)).not.toContain(id);
    expect(JSON.stringify(theirs)).not.toContain('Wall tenant isolation');
  });

  it('when a resident calls SOS or files a complaint, then the wall account is pushed both, the other estate is not', async () => {
    const sockets = { wall: await openRealtime(api, wall), stranger: await openRealtime(api, other.admin) };
    try {
      const id = await sos('Wall push check');
      const pushed = await sockets.wall.waitFor((m) => m.channelType === 10 && m.dataId === id);
      expect(pushed).toMatchObject({ messageType: 7, sos: 'new' });
      const complaint = await resident.post('/app/complain/save', { ...resident.house, name: 'Push', note: 'Wall' });
      const complainId = complaint.body.data.complainId as number;
      await sockets.wall.waitFor((m) => m.dataId === complainId && m.channelType !== 10);
      expect(sockets.stranger.messages.some((m) => m.dataId === id && m.channelType === 10)).toBe(false);
    } finally {
      sockets.wall.close();
      sockets.stranger.close();
    }
  });
});
