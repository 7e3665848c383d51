// Basic set-up and ad settings (issue 33), on the feature template (work-orders.feature.test.ts):
//   1. the happy path            4. another tenant's ids answer 404 and change nothing
//   2. its rules (the period)    5. the push written with the change
//   3. permission per call       6. bad input answered 400, translated, with nothing written
// Everything goes through HTTP and the realtime socket as clients do, on the kit (./kit).
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callerOf,
  declaredCalls,
  makeCall,
  openRealtime,
  otherTenant,
  rowCounts,
  signIn,
  signInResident,
  staffWithout,
  startTestApi,
  testEngines,
  type FeatureCall,
  type ResidentSession,
  type Session,
  type TestApi,
} from './kit';

/** The feature's two parts as data: the calls of each, their permission and their tables. */
const PARTS = {
  ads: {
    permission: 'ad:list',
    tables: ['ad'] as const,
    calls: (picture: () => string): (FeatureCall & { record?: true })[] => [
      { method: 'post', path: '/base/ad/page', body: () => ({ page: 1, limit: 100 }) },
      { method: 'get', path: '/base/ad/info/{id}', record: true },
      {
        method: 'post',
        path: '/base/ad/saveorupdate',
        body: (id) => ({
          adId: id,
          title: 'Changed by someone else',
          image: picture(),
          detailImage: picture(),
          link: 'https://example.com/x',
        }),
        record: true,
      },
      { method: 'post', path: '/base/ad/switch', body: (id) => ({ adId: id, enabled: false }), record: true },
      { method: 'post', path: '/base/ad/sort', body: (id) => ({ adIds: [id] }), record: true },
      { method: 'post', path: '/base/ad/delete', body: (id) => ({ adIds: [id] }), record: true },
    ],
  },
  settings: {
    permission: 'estate:settings',
    tables: ['estate_settings_change'] as const,
    calls: (): FeatureCall[] => [
      { method: 'get', path: '/base/estate/settings' },
      { method: 'post', path: '/base/estate/update', body: () => ({ name: 'Renamed by someone else' }) },
    ],
  },
};

interface Ad {
  adId: number;
  title: string;
  sort: number;
  enabled: boolean;
  state: string;
  showing: boolean;
}

/** The estate's today in a time zone, as `yyyy-MM-dd`, and a day `offset` days from it. */
function dayIn(timeZone: string, offset = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

describe.each(testEngines())('basic set-up and ad settings on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let resident: ResidentSession;
  let other: { admin: Session; staff: Session };
  let png: Buffer;

  const upload = async (who: Session, kind = 'ad'): Promise<string> => {
    const res = await api.http
      .post(`/upload/uploadimage/${kind}`)
      .set(who.headers)
      .attach('file', png, { filename: 'ad.png', contentType: 'image/png' });
    expect(res.status).toBe(200);
    return res.body.data.originalImagePath as string;
  };
  const addAd = async (fields: object = {}): Promise<Ad> => {
    const res = await admin.post('/base/ad/saveorupdate', {
      title: 'Spring sale',
      image: await upload(admin),
      detailImage: await upload(admin),
      link: 'https://example.com/sale',
      ...fields,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Ad;
  };
  const allAds = async (who: Session = admin): Promise<Ad[]> =>
    (await who.post('/base/ad/page', { page: 1, limit: 1000 })).body.data.list as Ad[];
  const servedTitles = async (): Promise<string[]> => {
    const res = await resident.get('/app/ad/list');
    expect(res.status).toBe(200);
    return (res.body.data as { title: string }[]).map((a) => a.title);
  };
  const settings = async (who: Session = admin) => (await who.get('/base/estate/settings')).body.data;

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, resident, other] = await Promise.all([signIn(api, 'admin'), signInResident(api), otherTenant(api)]);
    png = await sharp({ create: { width: 120, height: 60, channels: 3, background: '#2a7' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => api?.close());

  it('when staff add, edit, reorder, switch and delete ads, then the list and the resident app follow, in order, with only the ads shown now', async () => {
    const first = await addAd({ title: 'Happy A' });
    const second = await addAd({ title: 'Happy B', link: 'app://announcements' });
    let ads = await allAds();
    // New ads go to the end of the order.
    expect(ads.slice(-2).map((a) => a.title)).toEqual(['Happy A', 'Happy B']);
    expect(ads.find((a) => a.adId === first.adId)).toMatchObject({ state: 'showing', showing: true, enabled: true });

    // The resident app: in order, the app link named as a screen.
    const served = (await resident.get('/app/ad/list')).body.data as {
      title: string;
      linkType: string;
      screen: string | null;
    }[];
    expect(served.map((a) => a.title).slice(-2)).toEqual(['Happy A', 'Happy B']);
    expect(served.find((a) => a.title === 'Happy B')).toMatchObject({ linkType: 'app', screen: 'announcements' });
    expect(served.find((a) => a.title === 'Happy A')).toMatchObject({ linkType: 'web', screen: null });

    // Edit keeps the pictures it has (as stored, or with the gateway's /api prefix) and changes the rest.
    const stored = (await admin.get(`/base/ad/info/${first.adId}`)).body.data as { image: string; detailImage: string };
    const edited = await admin.post('/base/ad/saveorupdate', {
      adId: first.adId,
      title: 'Happy A edited',
      image: stored.image,
      detailImage: `/api${stored.detailImage}`,
      link: 'https://example.com/edited',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ title: 'Happy A edited', link: 'https://example.com/edited' });

    // Swap the two neighbours: B moves up.
    expect((await admin.post('/base/ad/sort', { adIds: [second.adId, first.adId] })).status).toBe(200);
    ads = await allAds();
    expect(ads.slice(-2).map((a) => a.adId)).toEqual([second.adId, first.adId]);
    expect((await servedTitles()).slice(-2)).toEqual(['Happy B', 'Happy A edited']);

    // Off: no longer served, still listed.
    const off = await admin.post('/base/ad/switch', { adId: second.adId, enabled: false });
    expect(off.body.data).toMatchObject({ enabled: false, state: 'off', showing: false });
    expect(await servedTitles()).not.toContain('Happy B');
    expect(
      (await admin.post('/base/ad/page', { showing: false, limit: 100 })).body.data.list.map((a: Ad) => a.adId),
    ).toContain(second.adId);

    const deleted = await admin.post('/base/ad/delete', { adIds: [first.adId, second.adId] });
    expect(deleted.body.data).toEqual({ deleted: 2 });
    expect((await allAds()).map((a) => a.adId)).not.toContain(first.adId);
    expect(await servedTitles()).not.toContain('Happy A edited');
  });

  it("when an ad's period has not begun or is over (in the estate's days), then it is not served; a time zone change moves the estate's today at once", async () => {
    const zone = 'Pacific/Kiritimati'; // UTC+14: its today is the world's tomorrow most of the day
    expect((await admin.post('/base/estate/update', { timeZone: zone })).status).toBe(200);
    try {
      await addAd({ title: 'Period today', startDate: dayIn(zone), endDate: dayIn(zone) });
      await addAd({ title: 'Period ended yesterday', startDate: dayIn(zone, -5), endDate: dayIn(zone, -1) });
      await addAd({ title: 'Period from tomorrow', startDate: dayIn(zone, 1), endDate: dayIn(zone, 9) });
      await addAd({ title: 'Period open end', startDate: dayIn(zone, -1) });
      const served = await servedTitles();
      expect(served).toContain('Period today');
      expect(served).toContain('Period open end');
      expect(served).not.toContain('Period ended yesterday');
      expect(served).not.toContain('Period from tomorrow');
      const states = Object.fromEntries((await allAds()).map((a) => [a.title, a.state]));
      expect(states).toMatchObject({
        'Period today': 'showing',
        'Period ended yesterday': 'ended',
        'Period from tomorrow': 'scheduled',
      });

      // Pago Pago (UTC-11) is 25 hours behind: there the ad of Kiritimati's today has not begun.
      expect((await admin.post('/base/estate/update', { timeZone: 'Pacific/Pago_Pago' })).status).toBe(200);
      expect(dayIn('Pacific/Pago_Pago')).not.toBe(dayIn(zone));
      expect(await servedTitles()).not.toContain('Period today');
    } finally {
      await admin.post('/base/estate/update', { timeZone: 'Asia/Hong_Kong' });
    }
  });

  it('when a caller lacks the permission a call declares, then that call answers 403 (a resident 403, no token 401) and nothing changes', async () => {
    const ad = await addAd({ title: 'Permission check' });
    const picture = await upload(admin);
    for (const part of Object.values(PARTS)) {
      const calls = await declaredCalls(
        api,
        part.calls(() => picture),
      );
      const lacking = await staffWithout(api, admin, part.permission);
      const rows = await rowCounts(api, part.tables);
      for (const call of calls) {
        const what = `${call.method.toUpperCase()} ${call.path} (${call.permission})`;
        expect(call.permission, what).toBe(part.permission);
        expect((await makeCall(lacking, call, ad.adId)).status, `staff lacking it: ${what}`).toBe(403);
        expect((await makeCall(resident, call, ad.adId)).status, `resident: ${what}`).toBe(403);
        expect((await makeCall(callerOf(api, 'no-such-token'), call, ad.adId)).status, `no token: ${what}`).toBe(401);
      }
      expect(await rowCounts(api, part.tables)).toEqual(rows);
    }
    expect((await admin.get(`/base/ad/info/${ad.adId}`)).body.data).toMatchObject({
      title: 'Permission check',
      enabled: true,
    });
    expect((await settings()).name).not.toMatch(/someone else/);
    // The resident list is the resident's: a staff token is refused.
    expect((await admin.get('/app/ad/list')).status).toBe(403);
  });

  it("when another estate's staff use this estate's ids, then every call answers 404 or leaves it out, and no row changes", async () => {
    const ad = await addAd({ title: 'Tenant isolation' });
    const picture = await upload(other.staff);
    const rows = await rowCounts(api, ['ad', 'estate_settings_change']);
    for (const call of PARTS.ads.calls(() => picture)) {
      const res = await makeCall(other.staff, call, ad.adId);
      const what = `${call.method.toUpperCase()} ${call.path}`;
      if (call.record) expect(res.status, what).toBe(404);
      else expect(JSON.stringify(res.body.data), what).not.toContain('Tenant isolation');
    }
    expect(await rowCounts(api, ['ad', 'estate_settings_change'])).toEqual(rows);
    expect((await admin.get(`/base/ad/info/${ad.adId}`)).body.data).toMatchObject({
      title: 'Tenant isolation',
      enabled: true,
    });

    // Settings are the caller's estate's: the other administrator changes theirs, never this one.
    const mine = await settings();
    const theirs = await other.admin.post('/base/estate/update', { name: 'Green Valley Court (renamed)' });
    expect(theirs.body.data.housingEstateId).not.toBe(mine.housingEstateId);
    expect((await settings()).name).toBe(mine.name);
    // An estate's logo is a picture of its own staff: another estate's upload is refused.
    const foreign = await admin.post('/base/estate/update', { logo: picture });
    expect(foreign.status).toBe(400);
    // …and so are its ad pictures.
    expect(
      (
        await admin.post('/base/ad/saveorupdate', {
          title: 'x',
          image: picture,
          detailImage: picture,
          link: 'https://a.b',
        })
      ).status,
    ).toBe(400);
  });

  it("when the settings change, then the estate's staff consoles are pushed the new settings at once, and nobody else", async () => {
    const blind = await staffWithout(api, admin, 'estate:settings');
    const listeners = { admin, blind, stranger: other.staff, resident };
    const sockets = Object.fromEntries(
      await Promise.all(Object.entries(listeners).map(async ([who, s]) => [who, await openRealtime(api, s)] as const)),
    );
    try {
      const res = await admin.post('/base/estate/update', {
        name: 'Harbour View Garden (push)',
        sosReannounceSeconds: 45,
      });
      expect(res.status).toBe(200);
      for (const who of ['admin', 'blind'] as const) {
        const pushed = await sockets[who].waitFor((m) => m.channelType === 3950);
        expect(pushed).toMatchObject({
          name: 'Harbour View Garden (push)',
          sosReannounceSeconds: 45,
          timeZone: 'Asia/Hong_Kong',
        });
      }
      // The pushes to the estate's staff are out: no one else heard.
      expect(sockets.stranger.messages.filter((m) => m.channelType === 3950)).toEqual([]);
      expect(sockets.resident.messages.filter((m) => m.channelType === 3950)).toEqual([]);
      // Any signed-in person of the estate reads the settings as they stand.
      expect((await blind.get('/base/estate/info')).body.data).toMatchObject({ name: 'Harbour View Garden (push)' });
    } finally {
      await Promise.all(Object.values(sockets).map((s) => s.close()));
      await admin.post('/base/estate/update', { name: 'Harbour View Garden', sosReannounceSeconds: null });
    }
  });

  it('when input is bad, then the call answers 400 with a message in the asked language and writes nothing', async () => {
    const ad = await addAd({ title: 'Bad input' });
    const picture = await upload(admin);
    const valid = { title: 'x', image: picture, detailImage: picture, link: 'https://example.com' };
    const rows = await rowCounts(api, ['ad', 'estate_settings_change']);
    const before = await settings();
    const bad: [string, object][] = [
      ['/base/ad/saveorupdate', { ...valid, link: 'javascript:alert(1)' }],
      ['/base/ad/saveorupdate', { ...valid, link: 'JavaScript:alert(document.cookie)' }],
      ['/base/ad/saveorupdate', { ...valid, link: 'data:text/html,<script>alert(1)</script>' }],
      ['/base/ad/saveorupdate', { ...valid, link: '//example.com/x' }],
      ['/base/ad/saveorupdate', { ...valid, link: 'app://no-such-screen' }],
      ['/base/ad/saveorupdate', { ...valid, link: '' }],
      ['/base/ad/saveorupdate', { ...valid, image: '' }],
      ['/base/ad/saveorupdate', { ...valid, detailImage: undefined }],
      ['/base/ad/saveorupdate', { ...valid, title: '  ' }],
      ['/base/ad/saveorupdate', { ...valid, image: '/upload/files/ad/202601/never-uploaded.png' }],
      ['/base/ad/saveorupdate', { ...valid, image: 'https://evil.example.com/a.png' }],
      ['/base/ad/saveorupdate', { ...valid, startDate: '2026-02-30' }],
      ['/base/ad/saveorupdate', { ...valid, startDate: '2026-05-02', endDate: '2026-05-01' }],
      ['/base/ad/saveorupdate', { ...valid, adId: 'abc' }],
      ['/base/ad/switch', { adId: ad.adId, enabled: 'yes' }],
      ['/base/ad/delete', { adIds: [] }],
      ['/base/ad/sort', { adIds: 'all' }],
      ['/base/ad/page', { page: 'first' }],
      ['/base/estate/update', { timeZone: 'Mars/Olympus_Mons' }],
      ['/base/estate/update', { timeZone: "UTC'; drop table ad; --" }],
      ['/base/estate/update', { name: '' }],
      ['/base/estate/update', { sosReannounceSeconds: 3 }],
      ['/base/estate/update', { sosReannounceSeconds: 1.5 }],
      ['/base/estate/update', { voteReminderUnitMs: 5000 }],
      ['/base/estate/update', { defaultLanguage: 'fr' }],
      ['/base/estate/update', { logo: '/upload/files/logo/202601/never-uploaded.png' }],
    ];
    for (const [path, body] of bad) {
      const res = await admin.post(path, body).set('lang', 'zh-CN');
      const what = `${path} ${JSON.stringify(body)}`;
      expect(res.status, what).toBe(400);
      expect(res.body.code, what).toBe(400);
      expect(res.body.msg, what).toMatch(/[\u4e00-\u9fff]/);
    }
    // The jump-link rule says what a link may be, in the asked language.
    const js = await admin.post('/base/ad/saveorupdate', { ...valid, link: 'javascript:alert(1)' }).set('lang', 'en');
    expect(js.body.msg).toBe('The jump link must start with http:// or https://, or name a screen of the resident app');
    expect(await rowCounts(api, ['ad', 'estate_settings_change'])).toEqual(rows);
    expect(await settings()).toEqual(before);
  });
});
