// Issue 34: the gateway asks about many tabs' tokens in one call (POST /realtime/identities). Each
// token is its own credential: a valid one is answered as GET /realtime/identity answers it, a
// revoked, expired or made-up one null, without failing the others; bad input is refused 400.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signInAll, startTestApi, testEngines, type Session, type TestApi } from './kit';

describe.each(testEngines())('POST /realtime/identities on %s', (engine) => {
  let api: TestApi;
  let people: Record<string, Session>;
  const batch = (body: unknown) =>
    request(api.url)
      .post('/realtime/identities')
      .send(body as object);

  beforeAll(async () => {
    api = await startTestApi(engine);
    people = await signInAll(api, { admin: 'admin', staff: 'staff', resident: 'resident1' });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('when valid tokens are asked about, then each is answered as GET /realtime/identity answers it, in order, without a Bearer', async () => {
    const tokens = [people.staff.token, people.admin.token, people.resident.token, people.staff.token];
    const res = await batch({ tokens });
    expect(res.status).toBe(200);
    const singles = await Promise.all(
      tokens.map(
        async (t) => (await request(api.url).get('/realtime/identity').set('Authorization', `Bearer ${t}`)).body.data,
      ),
    );
    expect(res.body.data.identities).toEqual(singles);
    expect(res.body.data.identities.map((i: { personId: number }) => i.personId)).toEqual([
      people.staff.personId,
      people.admin.personId,
      people.resident.personId,
      people.staff.personId,
    ]);
  });

  it('when a revoked and a made-up token are among valid ones, then those two are null and the others answered', async () => {
    const revoked = await signIn(api, 'staff');
    // Known to the api (and its token cache) before it is revoked.
    expect((await batch({ tokens: [revoked.token] })).body.data.identities[0]).not.toBeNull();
    expect((await revoked.post('/auth/signOut')).status).toBe(200);
    const res = await batch({ tokens: [people.admin.token, revoked.token, 'made-up-token', people.resident.token] });
    expect(res.status).toBe(200);
    const ids = res.body.data.identities as ({ personId: number } | null)[];
    expect(ids.map((i) => i?.personId ?? null)).toEqual([people.admin.personId, null, null, people.resident.personId]);
  });

  it('when anyone sends 100 made-up tokens, then all are null and the api sends the database one query, not one each', async () => {
    const queries = async () =>
      (await api.metrics.queryDuration.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
    const made = Array.from({ length: 100 }, (_, i) => `made-up-${i}-${Math.random().toString(36).slice(2)}`);
    const before = await queries();
    const res = await batch({ tokens: made });
    expect(res.status).toBe(200);
    expect(res.body.data.identities).toEqual(made.map(() => null));
    expect((await queries()) - before).toBe(1);
    // Valid ones among them are still answered.
    const mixed = await batch({ tokens: [made[0], people.staff.token, made[1]] });
    expect(mixed.body.data.identities.map((i: { personId: number } | null) => i?.personId ?? null)).toEqual([
      null,
      people.staff.personId,
      null,
    ]);
  });

  it('when the body is not a list of 1 to 100 tokens, then it is refused 400', async () => {
    expect((await batch({})).status).toBe(400);
    expect((await batch({ tokens: [] })).status).toBe(400);
    expect((await batch({ tokens: 'x' })).status).toBe(400);
    expect((await batch({ tokens: [''] })).status).toBe(400);
    expect((await batch({ tokens: [12] })).status).toBe(400);
    expect((await batch({ tokens: ['a'.repeat(201)] })).status).toBe(400);
    expect((await batch({ tokens: Array.from({ length: 101 }, () => people.staff.token) })).status).toBe(400);
    expect((await batch({ tokens: Array.from({ length: 100 }, () => people.staff.token) })).status).toBe(200);
  });
});
