// The open SOS calls a console reads to catch up (issue 35, the chaos run): past OPEN_SOS_LIMIT
// open calls the answer left out the newest — the very calls a console that was away has to
// catch up on — so one raised then never reached a console that missed its live push.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_SOS_LIMIT } from '../src/modules/disaster/disaster.repository';
import {
  signIn,
  signInResident,
  startTestApi,
  testEngines,
  type ResidentSession,
  type Session,
  type TestApi,
} from './kit';

describe.each(testEngines())('open SOS calls on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let resident: ResidentSession;

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, resident] = await Promise.all([signIn(api, 'admin'), signInResident(api)]);
  }, 180_000);
  afterAll(async () => api?.close());

  it(`when more than ${OPEN_SOS_LIMIT} calls are open, then the answer keeps the newest unacknowledged ones (oldest first) and leaves out the oldest and the acknowledged`, async () => {
    const call = async (position: string) => {
      const res = await resident.post('/app/sos/help', { ...resident.house, position });
      expect(res.status).toBe(200);
      return res.body.data.sosHelpId as number;
    };
    // OPEN_SOS_LIMIT open calls from an hour ago, then one acknowledged now.
    const template = await call('template');
    await api.db.execute(sql`
      insert into sos_help (company_id, housing_estate_id, person_id, house_type, unit_id, car_space_id, shop_id, position, status, created_at)
      select company_id, housing_estate_id, person_id, house_type, unit_id, car_space_id, shop_id, 'old ' || g, 1,
             now() - interval '1 hour' + g * interval '1 millisecond'
        from sos_help, generate_series(1, ${OPEN_SOS_LIMIT}) g where id = ${template}`);
    const acknowledged = await call('acknowledged');
    expect((await admin.post(`/disaster/sos/${acknowledged}/acknowledge`)).status).toBe(200);
    // The call a console that was away must find when it is back.
    const newest = await call('raised while the console was away');

    const open = (await admin.get('/disaster/sos/open')).body.data as { id: number; state: string; position: string }[];
    expect(open).toHaveLength(OPEN_SOS_LIMIT);
    const ids = open.map((c) => c.id);
    expect(ids).toContain(newest);
    expect(ids).toContain(template);
    // Unacknowledged calls go first (oldest first): with more than fit, the acknowledged ones and
    // the oldest unacknowledged are left out.
    expect(open.every((c) => c.state === 'open')).toBe(true);
    expect(ids).not.toContain(acknowledged);
    expect(open.at(-1)?.id).toBe(newest);
    expect(open.at(-2)?.id).toBe(template);
    expect(open[0].position).toBe('old 3');
    expect(open.map((c) => c.position)).not.toContain('old 2');
  }, 120_000);
});
