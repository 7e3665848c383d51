// Announcements (issue 20), on the feature template (work-orders.feature.test.ts): the happy path,
// the state machine (revoke, deadline, single/multiple choice), permission per call, another
// tenant's ids, the pushes, bad input; plus recipient targeting and sanitizing.
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import {
  callerOf,
  declaredCalls,
  makeCall,
  openRealtime,
  otherTenant,
  rowCounts,
  signIn,
  staffWithout,
  startTestApi,
  testEngines,
  type FeatureCall,
  type Session,
  type TestApi,
} from './kit';

// The api's timer (scheduled publications, vote reminders) looks every 100 ms in these tests.
process.env.ANNOUNCEMENT_REMINDER_TICK_MS = '100';

const TABLES = ['announcement', 'announcement_option', 'announcement_recipient', 'announcement_vote'] as const;

const staffCalls: (FeatureCall & { record?: true })[] = [
  { method: 'post', path: '/announcement/query/list', body: () => ({ page: 1, limit: 100 }) },
  { method: 'post', path: '/announcement/query/id/{id}', record: true },
  { method: 'post', path: '/announcement/query/readers/{id}', body: () => ({ page: 1, limit: 100 }), record: true },
  {
    method: 'post',
    path: '/announcement/recipients/count',
    body: () => ({ recipientBlockIds: [1], recipientIdentities: [1] }),
  },
  { method: 'get', path: '/announcement/recipients/choices' },
  {
    method: 'post',
    path: '/announcement/save',
    body: () => ({ type: 1, title: 'x', content: '<p>x</p>', recipientBlockIds: [1], recipientIdentities: [1] }),
  },
  { method: 'post', path: '/announcement/revoke', body: (id) => ({ id }), record: true },
  { method: 'get', path: '/announcement/export/{id}', record: true },
  { method: 'post', path: '/announcement/query/comments/{id}', record: true },
  { method: 'post', path: '/announcement/comment/hide', body: () => ({ id: 1, hidden: true }) },
];

const inAWeek = () => new Date(Date.now() + 7 * 24 * 3600_000).toISOString();

describe.each(testEngines())('announcements on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let residents: Session[];
  let other: { admin: Session; staff: Session };
  let blocks: number[];

  /** Who an announcement to these blocks and identities must reach, read straight from the tables. */
  const expectedRecipients = async (blockIds: number[], identities: number[]) =>
    (
      await queryRows<{ person_id: number }>(
        api.db,
        sql`select distinct ph.person_id from person_house ph join unit u on u.id = ph.unit_id
            where ph.housing_estate_id = 1 and ph.status = 2 and ph.house_type = 1
              and u.block_id in ${sql.raw(`(${blockIds.join(',')})`)} and ph.identity in ${sql.raw(`(${identities.join(',')})`)}
            order by ph.person_id`,
      )
    ).map((r) => r.person_id);

  const vote = (over: object = {}) => ({
    type: 3,
    title: 'Vote: garden benches',
    content: '<p>Where should the new benches go?</p>',
    recipientBlockIds: blocks,
    recipientIdentities: [1, 2, 3],
    deadline: inAWeek(),
    selectionMode: 1,
    reminderInterval: 24,
    options: ['By the pond', 'Near the gate', 'Under the trees'],
    ...over,
  });
  const publish = async (body: object) => {
    const res = await admin.post('/announcement/save', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: number; options: { id: number; votes: number }[]; recipientCount: number };
  };
  const detail = async (id: number) => (await admin.post(`/announcement/query/id/${id}`)).body.data;
  const listOf = async (who: Session) => (await who.get('/app/announcement/list')).body.data as { id: number }[];

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, other, ...residents] = await Promise.all([
      signIn(api, 'admin'),
      otherTenant(api),
      ...(['resident1', 'resident2', 'resident3'] as const).map((r) => signIn(api, r)),
    ]);
    blocks = (await admin.get('/announcement/recipients/choices')).body.data.blocks.map((b: { id: number }) => b.id);
  });
  afterAll(async () => api?.close());

  it('when staff publish a vote, then exactly its recipients see it, read and vote, and the results, read lists and totals follow until it is revoked', async () => {
    const recipients = await expectedRecipients(blocks, [1, 2, 3]);
    const counted = await admin.post('/announcement/recipients/count', {
      recipientBlockIds: blocks,
      recipientIdentities: [1, 2, 3],
    });
    expect(counted.body.data.count).toBe(recipients.length);
    const a = await publish(vote());
    expect(a.recipientCount).toBe(recipients.length);
    const list = await admin.post('/announcement/query/list', { page: 1, limit: 10 });
    expect(list.body.data.list[0]).toMatchObject({ id: a.id, type: 3, revoked: false, readCount: 0 });

    const [r1, r2] = residents;
    expect((await listOf(r1)).map((x) => x.id)).toContain(a.id);
    expect((await r1.post('/app/announcement/read', { id: a.id })).status).toBe(200);
    expect((await r1.post('/app/announcement/vote', { id: a.id, optionIds: [a.options[1].id] })).status).toBe(200);
    expect((await r2.post('/app/announcement/read', { id: a.id })).status).toBe(200);

    const d = await detail(a.id);
    expect(d.totals).toEqual({
      recipients: recipients.length,
      unread: recipients.length - 2,
      read: 2,
      readNotVoted: 1,
      readAndVoted: 1,
    });
    expect(d.options.map((o: { votes: number }) => o.votes)).toEqual([0, 1, 0]);
    const read = await admin.post(`/announcement/query/readers/${a.id}`, { page: 1, limit: 100, read: 1 });
    expect(read.body.data.total).toBe(2);
    const byPerson = Object.fromEntries(
      read.body.data.list.map((r: { personId: number; readResult: number }) => [r.personId, r]),
    );
    expect(byPerson[r1.personId]).toMatchObject({ readResult: 3, optionIds: [a.options[1].id] });
    expect(byPerson[r2.personId]).toMatchObject({ readResult: 2, optionIds: [] });
    const unread = await admin.post(`/announcement/query/readers/${a.id}`, { page: 1, limit: 100, read: 0 });
    expect(unread.body.data.total).toBe(recipients.length - 2);

    const revoked = await admin.post('/announcement/revoke', { id: a.id });
    expect(revoked.body.data).toMatchObject({ revoked: true });
    expect((await listOf(r1)).map((x) => x.id)).not.toContain(a.id);
    const late = await r2.post('/app/announcement/vote', { id: a.id, optionIds: [a.options[0].id] });
    expect(late.status).toBe(409);
    expect(late.body.msg).toBe('This announcement was revoked: voting is closed');
    const lateTw = await r2
      .post('/app/announcement/vote', { id: a.id, optionIds: [a.options[0].id] })
      .set('lang', 'zh-TW');
    expect([lateTw.status, lateTw.body.msg]).toEqual([409, '該公告已撤回，投票已關閉']);
    expect((await r2.post('/app/announcement/read', { id: a.id })).status).toBe(404);
  });

  it('when recipients are chosen by block and identity, then owners of the chosen block get it and nobody else', async () => {
    const [block] = blocks;
    const owners = await expectedRecipients([block], [1]);
    const everyone = await queryRows<{ person_id: number }>(api.db, sql`select distinct person_id from person_house`);
    const a = await publish({
      type: 1,
      title: 'Block notice',
      content: '<p>Owners only</p>',
      recipientBlockIds: [block],
      recipientIdentities: [1],
    });
    const stored = await queryRows<{ person_id: number }>(
      api.db,
      sql`select person_id from announcement_recipient where announcement_id = ${a.id} order by person_id`,
    );
    expect(owners.length).toBeGreaterThan(0);
    expect(stored.map((r) => r.person_id)).toEqual(owners);
    expect(everyone.length).toBeGreaterThan(owners.length);
    for (const r of residents) {
      const sees = (await listOf(r)).some((x) => x.id === a.id);
      expect(sees, `resident ${r.personId}`).toBe(owners.includes(r.personId));
    }
  });

  it('when votes break the rules, then single choice takes one option, multiple several, and a vote after the deadline is refused', async () => {
    const [r1] = residents;
    const single = await publish(vote({ title: 'Single' }));
    const multi = await publish(vote({ title: 'Multiple', selectionMode: 2 }));
    const two = (a: typeof single) => [a.options[0].id, a.options[2].id];
    expect((await r1.post('/app/announcement/vote', { id: single.id, optionIds: two(single) })).status).toBe(400);
    expect((await r1.post('/app/announcement/vote', { id: multi.id, optionIds: two(multi) })).status).toBe(200);
    expect((await detail(multi.id)).options.map((o: { votes: number }) => o.votes)).toEqual([1, 0, 1]);
    const foreign = await r1.post('/app/announcement/vote', { id: single.id, optionIds: [multi.options[0].id] });
    expect(foreign.status).toBe(400);

    await api.db.execute(sql`update announcement set deadline = now() - interval '1 minute' where id = ${single.id}`);
    const late = await r1.post('/app/announcement/vote', { id: single.id, optionIds: [single.options[0].id] });
    expect(late.status).toBe(409);
    expect(late.body.msg).toBe('Voting on this announcement has ended');
    const lateCn = await r1
      .post('/app/announcement/vote', { id: single.id, optionIds: [single.options[0].id] })
      .set('lang', 'zh-CN');
    expect([lateCn.status, lateCn.body.msg]).toEqual([409, '该公告的投票已结束']);
    expect((await detail(single.id)).totals.readAndVoted).toBe(0);
  });

  it('when staff export the results, then the workbook holds the totals, the votes per option and every recipient with their read result, in the asked language', async () => {
    const [r1] = residents;
    const a = await publish(vote({ title: 'Export check' }));
    expect((await r1.post('/app/announcement/vote', { id: a.id, optionIds: [a.options[2].id] })).status).toBe(200);
    const res = await admin
      .call('get', `/announcement/export/${a.id}`)
      .set('lang', 'zh-CN')
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(new Uint8Array(res.body as Buffer).buffer);
    const [totals, people] = book.worksheets;
    const rows = (ws: ExcelJS.Worksheet) =>
      ws
        .getSheetValues()
        .filter(Boolean)
        .map((r) => (r as unknown[]).slice(1));
    expect(rows(totals)).toContainEqual(['接收人', a.recipientCount]);
    expect(rows(totals)).toContainEqual(['已读已投票', 1]);
    expect(rows(totals)).toContainEqual(['Under the trees', 1]);
    const recipients = rows(people).slice(1);
    expect(recipients).toHaveLength(a.recipientCount);
    const name = (await queryRows<{ name: string }>(api.db, sql`select name from person where id = ${r1.personId}`))[0]
      .name;
    expect(recipients.find((r) => r[0] === name)?.slice(1, 2)).toEqual(['已读已投票']);
    expect(recipients.filter((r) => r[1] === '未读')).toHaveLength(a.recipientCount - 1);
  });

  it('when comments are allowed, then residents comment, staff hide one and residents no longer see it; elsewhere comments are refused', async () => {
    const [r1, r2] = residents;
    const open = await publish({ ...vote({ title: 'Comments on' }), allowComment: true });
    const closed = await publish(vote({ title: 'Comments off' }));
    const said = await r1.post('/app/announcement/comment', { id: open.id, content: 'Benches by the pond, please' });
    expect(said.status).toBe(200);
    expect((await r2.post('/app/announcement/comment', { id: open.id, content: 'Agreed' })).status).toBe(200);
    const refused = await r1.post('/app/announcement/comment', { id: closed.id, content: 'Hello' });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe('This announcement does not take comments');

    const hidden = await admin.post('/announcement/comment/hide', { id: said.body.data.id, hidden: true });
    expect(hidden.body.data).toMatchObject({ hidden: true, content: 'Benches by the pond, please' });
    const staffSees = (await admin.post(`/announcement/query/comments/${open.id}`)).body.data as { hidden: boolean }[];
    expect(staffSees.map((c) => c.hidden)).toEqual([true, false]);
    const residentSees = (await r2.get(`/app/announcement/comments/${open.id}`)).body.data as { content: string }[];
    expect(residentSees.map((c) => c.content)).toEqual(['Agreed']);
    const theirs = await other.staff.post('/announcement/comment/hide', { id: said.body.data.id, hidden: false });
    expect(theirs.status).toBe(404);
    expect((await admin.post(`/announcement/query/comments/${open.id}`)).body.data[0].hidden).toBe(true);
  });

  it('when a resident comments and staff hide the comment, then listing staff are pushed each change at once and the resident API leaves the hidden one out', async () => {
    const [r1, r2] = residents;
    const blind = await staffWithout(api, admin, 'bulletin:list');
    const sockets = {
      admin: await openRealtime(api, admin),
      blind: await openRealtime(api, blind),
      stranger: await openRealtime(api, other.staff),
      r2: await openRealtime(api, r2),
    };
    try {
      const a = await publish({ ...vote({ title: 'Comments live' }), allowComment: true });
      const said = await r1.post('/app/announcement/comment', { id: a.id, content: 'Swings, please' });
      expect(said.status).toBe(200);
      const commented = await sockets.admin.waitFor(
        (m) => m.channelType === 9 && m.dataId === a.id && m.action === 'commented',
      );
      expect(commented.commentId).toBe(said.body.data.id);
      const seen = (await r2.get(`/app/announcement/comments/${a.id}`)).body.data as { content: string }[];
      expect(seen.map((c) => c.content)).toEqual(['Swings, please']);

      expect((await admin.post('/announcement/comment/hide', { id: said.body.data.id, hidden: true })).status).toBe(
        200,
      );
      const hid = await sockets.admin.waitFor(
        (m) => m.channelType === 9 && m.dataId === a.id && m.action === 'commentHidden',
      );
      expect(hid).toMatchObject({ commentId: said.body.data.id, hidden: true });
      expect((await r2.get(`/app/announcement/comments/${a.id}`)).body.data).toEqual([]);
      expect((await r1.get(`/app/announcement/comments/${a.id}`)).body.data).toEqual([]);

      expect((await admin.post('/announcement/comment/hide', { id: said.body.data.id, hidden: false })).status).toBe(
        200,
      );
      await sockets.admin.waitFor((m) => m.action === 'commentHidden' && m.dataId === a.id && m.hidden === false);
      const back = (await r2.get(`/app/announcement/comments/${a.id}`)).body.data as { content: string }[];
      expect(back.map((c) => c.content)).toEqual(['Swings, please']);

      const about = (who: keyof typeof sockets) =>
        sockets[who].messages.filter((m) => m.channelType === 9 && m.dataId === a.id && m.commentId !== undefined);
      expect(about('blind')).toEqual([]);
      expect(about('stranger')).toEqual([]);
      // Residents' apps read comments through the resident API; they are not pushed each one.
      expect(about('r2')).toEqual([]);
    } finally {
      await Promise.all(Object.values(sockets).map((s) => s.close()));
    }
  });

  it('when staff publish at a set time, then residents neither see nor hear of it before, and are told when the time comes', async () => {
    const [r1] = residents;
    const socket = await openRealtime(api, r1);
    try {
      const publishAt = new Date(Date.now() + 1_500).toISOString();
      const a = await publish({ ...vote({ title: 'Scheduled' }), publishAt });
      expect(a).toMatchObject({ scheduled: true, publishTime: publishAt });
      expect((await listOf(r1)).map((x) => x.id)).not.toContain(a.id);
      expect((await r1.post('/app/announcement/vote', { id: a.id, optionIds: [a.options[0].id] })).status).toBe(404);
      const told = await socket.waitFor((m) => m.channelType === 9 && m.dataId === a.id, 10_000);
      expect(told.action).toBe('published');
      expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(publishAt));
      expect((await listOf(r1)).map((x) => x.id)).toContain(a.id);
      expect((await detail(a.id)).scheduled).toBe(false);
      expect((await r1.post('/app/announcement/vote', { id: a.id, optionIds: [a.options[0].id] })).status).toBe(200);
    } finally {
      await socket.close();
    }
  });

  it('when content carries a script, an onerror, a javascript: link and a remote image, then all are removed and own uploads stay', async () => {
    const a = await publish({
      type: 1,
      title: 'Sanitize',
      content:
        '<p>Hello<script>alert(1)</script></p><img src="/api/upload/files/announcement/2026/abc123.png" onerror="alert(2)">' +
        '<img src="/api/upload/files/../../etc/passwd">' +
        '<a href="javascript:alert(3)">click</a><img src="https://evil.example/x.png"><p style="color:red">ok</p>',
      recipientBlockIds: blocks,
      recipientIdentities: [1],
    });
    const { content } = await detail(a.id);
    expect(content).toBe(
      '<p>Hello</p><img src="/api/upload/files/announcement/2026/abc123.png" /><a rel="noopener noreferrer" target="_blank">click</a><p>ok</p>',
    );
    expect(content).not.toMatch(/script|onerror|javascript:|evil\.example|style/);
  });

  it('when a caller lacks the permission a call declares, then that call answers 403 (a resident 403, no token 401) and nothing changes', async () => {
    const a = await publish(vote({ title: 'Permission check' }));
    const rows = await rowCounts(api, TABLES);
    const calls = await declaredCalls(api, staffCalls);
    const lacking = await staffWithout(api, admin, 'bulletin:list');
    for (const call of calls) {
      const what = `${call.method.toUpperCase()} ${call.path} (${call.permission})`;
      expect(call.permission, what).toBe('bulletin:list');
      expect((await makeCall(lacking, call, a.id)).status, `staff lacking it: ${what}`).toBe(403);
      expect((await makeCall(residents[0], call, a.id)).status, `resident: ${what}`).toBe(403);
      expect((await makeCall(callerOf(api, 'no-such-token'), call, a.id)).status, `no token: ${what}`).toBe(401);
    }
    expect(await rowCounts(api, TABLES)).toEqual(rows);
    expect((await detail(a.id)).revoked).toBe(false);
  });

  it("when another estate's staff use this estate's ids, then every record call answers 404, lists leave it out and no row changes", async () => {
    const a = await publish(vote({ title: 'Tenant isolation' }));
    const rows = await rowCounts(api, TABLES);
    for (const call of staffCalls.filter((c) => c.record)) {
      expect((await makeCall(other.staff, call, a.id)).status, call.path).toBe(404);
    }
    const theirs = await other.staff.post('/announcement/query/list', {
      page: 1,
      limit: 100,
      keyword: 'Tenant isolation',
    });
    expect(theirs.body.data.total).toBe(0);
    const reach = await other.staff.post('/announcement/recipients/count', {
      recipientBlockIds: blocks,
      recipientIdentities: [1, 2, 3],
    });
    expect(reach.body.data.count).toBe(0);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
    expect((await detail(a.id)).revoked).toBe(false);
  });

  it('when staff publish and residents vote, then recipients and listing staff are pushed event 9 at once, staff hear each vote, and nobody else hears', async () => {
    const blind = await staffWithout(api, admin, 'bulletin:list');
    const [r1] = residents;
    const listeners = { admin, blind, stranger: other.staff, r1 };
    const sockets = Object.fromEntries(
      await Promise.all(Object.entries(listeners).map(async ([who, s]) => [who, await openRealtime(api, s)] as const)),
    );
    try {
      const a = await publish(vote({ title: 'Push check' }));
      const published = (m: Record<string, unknown>) =>
        m.channelType === 9 && m.dataId === a.id && m.action === 'published';
      await sockets.r1.waitFor(published);
      await sockets.admin.waitFor(published);
      expect((await r1.post('/app/announcement/vote', { id: a.id, optionIds: [a.options[0].id] })).status).toBe(200);
      await sockets.admin.waitFor((m) => m.channelType === 9 && m.dataId === a.id && m.action === 'voted');
      await admin.post('/announcement/revoke', { id: a.id });
      await sockets.r1.waitFor((m) => m.channelType === 9 && m.dataId === a.id && m.action === 'revoked');
      await sockets.admin.waitFor((m) => m.channelType === 9 && m.dataId === a.id && m.action === 'revoked');
      const heard = (who: string) => sockets[who].messages.filter((m) => m.channelType === 9 && m.dataId === a.id);
      expect(heard('blind')).toEqual([]);
      expect(heard('stranger')).toEqual([]);
      expect(heard('r1').map((m) => m.action)).toEqual(['published', 'revoked']);
    } finally {
      await Promise.all(Object.values(sockets).map((s) => s.close()));
    }
  });

  it('when input is bad, then the call answers 400 with a message in the asked language and writes nothing', async () => {
    const rows = await rowCounts(api, TABLES);
    const bad: object[] = [
      vote({ type: 9 }),
      vote({ title: '' }),
      vote({ recipientBlockIds: [] }),
      vote({ recipientIdentities: [] }),
      vote({ options: [] }),
      vote({ deadline: undefined }),
      vote({ selectionMode: undefined }),
      vote({ reminderInterval: undefined }),
      vote({ deadline: new Date(Date.now() - 60_000).toISOString() }),
      vote({ type: 2, meetingPlace: undefined, meetingTime: inAWeek() }),
      vote({ type: 2, meetingPlace: 'Club house', meetingTime: undefined }),
      vote({ content: '<script>alert(1)</script>' }),
      vote({ recipientBlockIds: [999999] }),
    ];
    for (const body of bad) {
      const res = await admin.post('/announcement/save', body).set('lang', 'zh-CN');
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg, JSON.stringify(body)).toMatch(/[\u4e00-\u9fff]/);
    }
    expect((await admin.post('/announcement/revoke', { id: 'abc' }).set('lang', 'zh-CN')).status).toBe(400);
    expect((await admin.post('/announcement/query/list', { page: 'first' }).set('lang', 'zh-CN')).status).toBe(400);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });
});
