import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApi, testEngines, type TestApi } from './kit';

describe.each(testEngines())('api skeleton on %s', (engine) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(engine);
  });
  afterAll(async () => api?.close());

  it('when /health is asked, then it answers 200 in an envelope', async () => {
    const res = await api.http.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 200, msg: 'Success', data: { status: 'up' } });
  });

  it('when admin signs in, then a bearer token comes back', async () => {
    const admin = await signIn(api, 'admin');
    const me = await admin.get('/auth/current/user');
    expect(me.status).toBe(200);
    expect(me.body.data.accountInfo.accId).toBeGreaterThan(0);
  });
});
