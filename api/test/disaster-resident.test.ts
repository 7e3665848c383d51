// Issue 21, the resident's side of disaster warnings and declarations beyond the feature template
// (disaster.feature.test.ts): a warning's "read" is the resident reading it (GET /app/disaster/list,
// POST /app/disaster/read), not their reply; a declaration carries pictures of the resident's own
// uploads and reaches the staff with disasterreport:list as a message and a push; staff handle it.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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

interface ResidentWarn {
  id: number;
  content: string;
  readTime: string | null;
  reply: number | null;
}

describe.each(testEngines())('disaster, the resident side, on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let resident: ResidentSession;
  let other: { admin: Session; staff: Session };
  let png: Buffer;

  const release = async (content: string): Promise<number> => {
    const res = await admin.post('/disaster/warn/save', { type: 1, content });
    expect(res.status).toBe(200);
    return res.body.data.id as number;
  };
  const myWarnings = async (who: Session = resident): Promise<ResidentWarn[]> => {
    const res = await who.get('/app/disaster/list');
    expect(res.status).toBe(200);
    return res.body.data as ResidentWarn[];
  };
  const people = async (warnId: number, list: 'read' | 'unread') =>
    (await admin.post(`/disaster/warn/${warnId}/people`, { list, limit: 100 })).body.data as {
      total: number;
      list: { personId: number; readTime: string | null }[];
    };
  const upload = async (who: Session, kind = 'disaster'): Promise<string> => {
    const res = await api.http
      .post(`/upload/uploadimage/${kind}`)
      .set(who.headers)
      .attach('file', png, { filename: 'window.png', contentType: 'image/png' });
    expect(res.status).toBe(200);
    return res.body.data.originalImagePath as string;
  };
  const unreadOf = async (who: Session, type: number) =>
    (await who.post('/base/message/unRead', { messageTypeList: [type] })).body.data.total as number;

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, resident, other] = await Promise.all([signIn(api, 'admin'), signInResident(api), otherTenant(api)]);
    png = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#a52' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => api?.close());

  it('when a resident reads a warning, then it moves from the unread list to the read list (not only on a reply), the consoles are pushed once, and their list shows when', async () => {
    const warnId = await release('Fire drill in block A at 3 pm');
    const mine = (await myWarnings()).find((w) => w.id === warnId);
    expect(mine).toMatchObject({ content: 'Fire drill in block A at 3 pm', readTime: null, reply: null });
    const before = (await admin.get(`/disaster/warn/${warnId}`)).body.data as { read: number; replied: number };
    expect((await people(warnId, 'unread')).list.map((p) => p.personId)).toContain(resident.personId);

    const console = await openRealtime(api, admin);
    try {
      const read = await resident.post('/app/disaster/read', { id: warnId });
      expect(read.status).toBe(200);
      expect(read.body.data.id).toBe(warnId);
      expect(Date.parse(read.body.data.readTime as string)).not.toBeNaN();
      await console.waitFor((m) => m.channelType === 10 && m.dataId === warnId && m.warn === 'read');
      // Read again: the same time, nothing pushed twice.
      const again = await resident.post('/app/disaster/read', { id: warnId });
      expect(again.body.data.readTime).toBe(read.body.data.readTime);
      await new Promise((r) => setTimeout(r, 300));
      expect(console.messages.filter((m) => m.dataId === warnId && m.warn === 'read')).toHaveLength(1);
    } finally {
      await console.close();
    }

    const after = (await admin.get(`/disaster/warn/${warnId}`)).body.data as { read: number; replied: number };
    expect(after).toMatchObject({ read: before.read + 1, replied: before.replied });
    const readList = await people(warnId, 'read');
    expect(readList.list.find((p) => p.personId === resident.personId)?.readTime).toBeTruthy();
    expect((await people(warnId, 'unread')).list.map((p) => p.personId)).not.toContain(resident.personId);
    expect((await myWarnings()).find((w) => w.id === warnId)?.readTime).toBe(readTimeOf(readList, resident));
  });

  it('when a warning is revoked, then the resident no longer sees it nor reads it; a warning never received or of another estate answers 404; staff get 403', async () => {
    const warnId = await release('Gas leak near the car park');
    expect((await myWarnings()).map((w) => w.id)).toContain(warnId);
    expect((await admin.post(`/disaster/warn/${warnId}/revoke`)).status).toBe(200);
    expect((await myWarnings()).map((w) => w.id)).not.toContain(warnId);
    expect((await resident.post('/app/disaster/read', { id: warnId })).status).toBe(404);

    const elsewhere = await other.admin.post('/disaster/warn/save', { type: 2, content: 'Another estate' });
    expect(elsewhere.status).toBe(200);
    const theirs = elsewhere.body.data.id as number;
    expect((await myWarnings()).map((w) => w.id)).not.toContain(theirs);
    const refused = await resident.post('/app/disaster/read', { id: theirs }).set('lang', 'zh-TW');
    expect(refused.status).toBe(404);
    expect(refused.body.msg).toMatch(/[\u4e00-\u9fff]/);

    expect((await admin.get('/app/disaster/list')).status).toBe(403);
    expect((await admin.post('/app/disaster/read', { id: warnId })).status).toBe(403);
    const bad = await resident.post('/app/disaster/read', { id: 'first' }).set('lang', 'zh-CN');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/[\u4e00-\u9fff]/);
  });

  it('when a resident declares damage with a picture they uploaded, then the staff with disasterreport:list get a message and a push, see the picture, and handle it (who, when, note) seen on every console', async () => {
    const blind = await staffWithout(api, admin, 'disasterreport:list');
    const sockets = {
      admin: await openRealtime(api, admin),
      blind: await openRealtime(api, blind),
      stranger: await openRealtime(api, other.staff),
    };
    try {
      const before = { admin: await unreadOf(admin, 71), blind: await unreadOf(blind, 71) };
      const picture = await upload(resident);
      const res = await resident.post('/app/disaster/declare', {
        ...resident.house,
        kind: 1,
        type: 4,
        content: 'The typhoon broke the lobby window',
        position: 'Lobby, east side',
        img: `/api${picture}`, // as the app gets it through the gateway
      });
      expect(res.status).toBe(200);
      const id = res.body.data.declarationId as number;

      const pushed = await sockets.admin.waitFor((m) => m.channelType === 10 && m.dataId === id);
      expect(pushed).toMatchObject({ messageType: 71, declaration: 'new', kind: 1, type: 4 });
      expect(await unreadOf(admin, 71)).toBe(before.admin + 1);
      expect(await unreadOf(blind, 71)).toBe(before.blind);
      const panel = await admin.post('/base/message/list', { page: 1, limit: 1000, messageTypeList: [71] });
      expect(panel.body.data.list.find((m: { dataId: number }) => m.dataId === id)).toBeTruthy();

      const row = (await admin.post('/disaster/declaration/page', { status: 1, limit: 100 })).body.data.list.find(
        (r: { id: number }) => r.id === id,
      );
      expect(row).toMatchObject({
        content: 'The typhoon broke the lobby window',
        position: 'Lobby, east side',
        img: picture,
        status: 1,
        houseType: resident.house.houseType,
      });
      // The picture is served (the staff's dialog shows it through the same path).
      const served = await api.http.get(picture);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');

      const done = await admin.post(`/disaster/declaration/${id}/handle`, { note: 'Glazier booked for tomorrow' });
      expect(done.status).toBe(200);
      expect(done.body.data).toMatchObject({ status: 2, handledNote: 'Glazier booked for tomorrow' });
      expect(done.body.data.handledBy).toBeTruthy();
      expect(Date.parse(done.body.data.handledAt as string)).not.toBeNaN();
      await sockets.admin.waitFor((m) => m.channelType === 10 && m.dataId === id && m.declaration === 'handled');
      expect((await admin.post(`/disaster/declaration/${id}/handle`, { note: 'again' })).status).toBe(409);

      const heard = (who: keyof typeof sockets) =>
        sockets[who].messages.filter((m) => m.channelType === 10 && m.declaration !== undefined && m.dataId === id);
      expect(heard('blind')).toEqual([]);
      expect(heard('stranger')).toEqual([]);
    } finally {
      await Promise.all(Object.values(sockets).map((s) => s.close()));
    }
  });

  it("when a declaration's pictures are not the resident's own uploads (another person's, a made-up path, not a picture, too many), then it answers 400 in the asked language and writes nothing", async () => {
    const stranger = await signInResident(api, 'resident2');
    const theirs = await upload(stranger);
    const mine = await upload(resident);
    const pdf = await api.http
      .post('/upload/uploadfile/disaster')
      .set(resident.headers)
      .attach('file', Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1'), {
        filename: 'photo.png',
        contentType: 'image/png',
      });
    const tables = ['disaster_declaration', 'message'] as const;
    const rows = await rowCounts(api, tables);
    const bad = [
      theirs,
      '/upload/files/disaster/202611/made-up.png',
      '../../etc/passwd',
      `${mine};${theirs}`,
      Array.from({ length: 10 }, () => mine).join(';'),
      ...(pdf.status === 200 ? [pdf.body.data.filePath as string] : []),
    ];
    for (const img of bad) {
      const res = await resident
        .post('/app/disaster/declare', { ...resident.house, kind: 2, type: 1, content: 'Smoke on the stairs', img })
        .set('lang', 'zh-CN');
      expect(res.status, img).toBe(400);
      expect(res.body.msg, img).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await rowCounts(api, tables)).toEqual(rows);
  });
});

function readTimeOf(list: { list: { personId: number; readTime: string | null }[] }, who: { personId: number }) {
  return list.list.find((p) => p.personId === who.personId)?.readTime ?? null;
}
