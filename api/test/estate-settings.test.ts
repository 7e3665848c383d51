// Basic set-up beyond the feature template (estate-setup.feature.test.ts): what was an
// environment variable is the default of an estate that set nothing, and each setting takes
// effect at once in the running api — a new account's language, the SOS re-announcement, the vote
// reminder unit, the time zone's recount of the per-day counters — with its history kept.
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { announceUnacknowledged } from '../src/modules/disaster/disaster.service';
import { sendDueReminders } from '../src/modules/announcement/announcement.reminders';
import { estateDefaultsFrom } from '../src/modules/estate-settings/estate-defaults';
import { estateSettings } from '../src/modules/estate-settings/estate-settings.service';
import {
  openRealtime,
  signIn,
  signInResident,
  startTestApi,
  testEngines,
  type ResidentSession,
  type Session,
  type TestApi,
} from './kit';

const HOUR = 3_600_000;

describe.each(testEngines())('basic set-up on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let resident: ResidentSession;
  let estateId: number;

  const update = async (body: object) => {
    const res = await admin.post('/base/estate/update', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    // The environment's defaults as a deployment sets them: no re-announcement for an hour.
    api = await startTestApi(engine, { sosReannounceMs: HOUR, estateDefaults: { voteReminderUnitMs: HOUR } });
    [admin, resident] = await Promise.all([signIn(api, 'admin'), signInResident(api)]);
    estateId = (await admin.get('/base/estate/info')).body.data.housingEstateId;
  });
  afterAll(async () => api?.close());

  it('when an estate set nothing, then the environment defaults apply and are named; a value set replaces one, null returns to it', async () => {
    const fresh = (await admin.get('/base/estate/settings')).body.data;
    expect(fresh).toMatchObject({
      name: 'Harbour View Garden',
      timeZone: 'Asia/Hong_Kong',
      defaultLanguage: 'en',
      sosReannounceSeconds: 3600,
      voteReminderUnitMs: HOUR,
      defaults: { defaultLanguage: 'en', sosReannounceSeconds: 3600, voteReminderUnitMs: HOUR },
      inherited: ['defaultLanguage', 'sosReannounceSeconds', 'voteReminderUnitMs'],
    });
    expect(fresh.logo).toMatch(/^\/upload\/files\//); // the demo's logo

    const set = await update({ defaultLanguage: 'zh-TW', sosReannounceSeconds: 30, version: fresh.updatedAt });
    expect(set).toMatchObject({
      defaultLanguage: 'zh-TW',
      sosReannounceSeconds: 30,
      inherited: ['voteReminderUnitMs'],
    });
    expect(set.updatedBy).toBe('Alex Chan');
    // Any module reads the settings through one function, with the running api's defaults.
    const defaults = estateDefaultsFrom(process.env, { sosReannounceMs: HOUR, voteReminderUnitMs: HOUR });
    expect(await estateSettings(api.db, estateId, defaults)).toMatchObject({
      defaultLanguage: 'zh-TW',
      sosReannounceSeconds: 30,
      voteReminderUnitMs: HOUR,
    });

    const back = await update({ defaultLanguage: null, sosReannounceSeconds: null });
    expect(back).toMatchObject({ defaultLanguage: 'en', sosReannounceSeconds: 3600 });
    expect(back.inherited).toEqual(['defaultLanguage', 'sosReannounceSeconds', 'voteReminderUnitMs']);
  });

  it('when the settings change, then the before and after are kept with who and when, and a change on an older version is refused with 409', async () => {
    const read = (await admin.get('/base/estate/settings')).body.data;
    const [{ n: before }] = await queryRows<{ n: number }>(
      api.db,
      sql`select count(*)::int as n from estate_settings_change`,
    );
    await update({ address: '90 Harbour Road', version: read.updatedAt });
    const [last] = await queryRows<{ person_id: number; before: { address: string }; after: { address: string } }>(
      api.db,
      sql`select person_id, before, after from estate_settings_change order by id desc limit 1`,
    );
    expect(last).toMatchObject({ person_id: admin.personId, after: { address: '90 Harbour Road' } });
    expect(last.before.address).not.toBe('90 Harbour Road');
    const [{ n: after }] = await queryRows<{ n: number }>(
      api.db,
      sql`select count(*)::int as n from estate_settings_change`,
    );
    expect(after).toBe(before + 1);

    // Someone else saved since `read`: this form's change is refused, nothing written.
    const stale = await admin
      .post('/base/estate/update', { address: 'Stale', version: read.updatedAt })
      .set('lang', 'zh-CN');
    expect(stale.status).toBe(409);
    expect(stale.body.msg).toMatch(/[\u4e00-\u9fff]/);
    expect((await admin.get('/base/estate/settings')).body.data.address).toBe('90 Harbour Road');
  });

  it('when the language of new accounts is set, then an account created afterwards speaks it', async () => {
    await update({ defaultLanguage: 'zh-CN' });
    try {
      const created = await admin.post('/account/update', {
        username: `new-${engine}-zh`,
        password: 'secret123',
        name: 'New colleague',
      });
      expect(created.status).toBe(200);
      const info = (await admin.get(`/account/info/${created.body.data.accId}`)).body.data;
      expect(info.personCompany.language).toBe('zh-CN');
    } finally {
      await update({ defaultLanguage: null });
    }
  });

  it("when the estate's SOS interval is shorter than the default, then the running api announces an unanswered call again after it, without a restart", async () => {
    const socket = await openRealtime(api, admin);
    try {
      const id = (await resident.post('/app/sos/help', { ...resident.house, position: 'Car park' })).body.data
        .sosHelpId as number;
      // Nobody answered for 15 s (backdated), the default of an hour is far away.
      await api.db.execute(sql`update sos_help set created_at = now() - interval '15 seconds' where id = ${id}`);
      expect(await announceUnacknowledged(api.db, api.realtime, HOUR)).toBe(0);
      await update({ sosReannounceSeconds: 10 });
      // The api's own timer (every 2.5 s at most) reads the new interval.
      const again = await socket.waitFor((m) => m.channelType === 10 && m.dataId === id && m.sos === 'again', 8000);
      expect(again).toMatchObject({ messageType: 7, position: 'Car park' });
      await admin.post(`/disaster/sos/${id}/acknowledge`);
    } finally {
      await socket.close();
      await update({ sosReannounceSeconds: null });
    }
  });

  it("when the vote reminder unit is set, then a vote's reminders count in it: the first at publishing, the next when one is sent", async () => {
    await update({ voteReminderUnitMs: 60_000 });
    try {
      const res = await admin.post('/announcement/save', {
        type: 3,
        title: 'Paint colour for the lobby',
        content: '<p>Choose one</p>',
        recipientBlockIds: [1],
        recipientIdentities: [1],
        deadline: new Date(Date.now() + 7 * 24 * HOUR).toISOString(),
        selectionMode: 1,
        reminderInterval: 3,
        options: ['Blue', 'Green'],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const id = res.body.data.id as number;
      const gap = async () =>
        (
          await queryRows<{ s: number }>(
            api.db,
            sql`select round(extract(epoch from next_reminder_at - now()))::int as s from announcement where id = ${id}`,
          )
        )[0].s;
      expect(await gap()).toBeGreaterThan(170); // 3 minutes, not 3 hours
      expect(await gap()).toBeLessThanOrEqual(180);

      await update({ voteReminderUnitMs: 86_400_000 });
      await api.db.execute(
        sql`update announcement set next_reminder_at = now() - interval '1 second' where id = ${id}`,
      );
      expect(await sendDueReminders(api.db, api.realtime, HOUR)).toBeGreaterThanOrEqual(1);
      expect(await gap()).toBeGreaterThan(3 * 86_400 - 60); // then 3 days
    } finally {
      await update({ voteReminderUnitMs: null });
    }
  });

  it("when the time zone changes, then the estate's per-day counters are recounted in its new days", async () => {
    const counted = () =>
      queryRows<{ day: string; n: number }>(
        api.db,
        sql`select to_char(day, 'YYYY-MM-DD') as day, sum(n)::int as n from work_day_total
            where housing_estate_id = ${estateId} and kind = 'complaint' and n <> 0 group by 1 order by 1`,
      );
    const recount = () =>
      queryRows<{ day: string; n: number }>(
        api.db,
        sql`select to_char((c.report_time at time zone he.time_zone)::date, 'YYYY-MM-DD') as day, count(*)::int as n
            from complain c join housing_estate he on he.id = c.housing_estate_id
            where c.housing_estate_id = ${estateId} group by 1 order by 1`,
      );
    const before = await counted();
    await update({ timeZone: 'America/New_York' });
    try {
      expect(await counted()).toEqual(await recount());
      expect(await counted()).not.toEqual(before);
      expect((await admin.get('/account/info/' + admin.accId)).body.data.company.timeZone).toBe('America/New_York');
    } finally {
      await update({ timeZone: 'Asia/Hong_Kong' });
    }
    expect(await counted()).toEqual(before);
  });

  it('when a logo is uploaded by the estate, then it becomes the logo; removing it leaves none', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#15a' } })
      .png()
      .toBuffer();
    const uploaded = await api.http
      .post('/upload/uploadimage/logo')
      .set(admin.headers)
      .attach('file', png, { filename: 'logo.png', contentType: 'image/png' });
    const path = uploaded.body.data.originalImagePath as string;
    expect((await update({ logo: `/api${path}` })).logo).toBe(path);
    expect((await resident.get('/base/estate/info')).body.data.logo).toBe(path);
    const picture = await api.http.get(path);
    expect(picture.status).toBe(200);
    expect((await update({ logo: null })).logo).toBeNull();
  });
});
