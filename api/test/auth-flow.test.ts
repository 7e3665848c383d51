// Sign-in and sessions (issue 3, SPEC §4/§5): the console's login flow end to end, token
// expiry and revocation, the password change, rate limiting and the picture-drag captcha.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captcha } from '../src/db/schema';
import { callerOf, refusedStatus, requestToken, startTestApi, testEngines, type TestApi } from './kit';

describe.each(testEngines())('sign-in and sessions on %s', (engine) => {
  let api: TestApi;
  const tokenCall = (form: Record<string, string | number>, headers: Record<string, string> = {}) =>
    requestToken(api, form, headers);

  /** A fresh staff account with the demo staff role, so tests never lock each other out. */
  async function newAccount(username: string, password = 'Secret123'): Promise<{ accId: number }> {
    const admin = await api.login('admin', 'admin123');
    const roles = await callerOf(api, admin).post('/base/sysrole/page', { page: 1, limit: 100 });
    const staffRole = roles.body.data.list.find((r: { roleValue: string }) => r.roleValue !== 'ADMIN');
    const created = await callerOf(api, admin).post('/account/update', {
      username,
      password,
      name: `Tester ${username}`,
      email: `${username}@example.com`,
      roleId: staffRole.roleId,
    });
    expect(created.status).toBe(200);
    return created.body.data;
  }

  beforeAll(async () => {
    api = await startTestApi(engine);
  });
  afterAll(async () => api?.close());

  it('when staff sign in, then token → current user → account info → role menu gives the routes of their role (SPEC §4)', async () => {
    const res = await tokenCall({ username: '  staff ', password: 'staff123' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 7 * 24 * 3600 });
    // ≥ 256 random bits, and only its hash is stored.
    const token = res.body.access_token as string;
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);

    const me = await callerOf(api, token).get('/auth/current/user');
    expect(me.status).toBe(200);
    const accId = me.body.data.accountInfo.accId as number;
    const info = await callerOf(api, token).get(`/account/info/${accId}`);
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ accId, username: 'staff', company: { companyType: expect.any(Number) } });
    expect(info.body.data.role.roleValue).not.toBe('ADMIN');
    const menu = await callerOf(api, token).get(`/base/sysrole/infoandmenu/${info.body.data.role.roleId}`);
    expect(menu.status).toBe(200);
    const perms = JSON.stringify(menu.body.data);
    expect(perms).toContain('complain:list');
    expect(perms).not.toContain('system:role');

    // Another person's account info is not theirs to read.
    const admin = await api.login('admin', 'admin123');
    const adminAcc = (await callerOf(api, admin).get('/auth/current/user')).body.data.accountInfo.accId;
    expect((await callerOf(api, token).get(`/account/info/${adminAcc}`)).status).toBe(403);
  });

  it('when the client credentials, grant type or fields are wrong, then the answer says so in the asked language', async () => {
    const badClient = await tokenCall(
      { username: 'admin', password: 'admin123' },
      { Authorization: `Basic ${Buffer.from('console:wrong').toString('base64')}` },
    );
    expect(badClient.status).toBe(401);
    const grant = await tokenCall({ grant_type: 'client_credentials', username: 'admin', password: 'admin123' });
    expect(grant.status).toBe(400);
    const noName = await tokenCall({ password: 'x' }, { lang: 'zh-CN' });
    expect(noName.status).toBe(400);
    expect(noName.body.msg).toBe('请输入账号');
  });

  it('when a token expires, then every call answers 401 and the real-time upgrade is refused', async () => {
    const shortLived = await startTestApi('pglite', { tokenTtlSeconds: 1 });
    try {
      const token = await shortLived.login('admin', 'admin123');
      const me = await callerOf(shortLived, token).get('/auth/current/user');
      expect(me.status).toBe(200);
      await new Promise((r) => setTimeout(r, 1_300));
      const late = await callerOf(shortLived, token).get('/auth/current/user');
      expect(late.status).toBe(401);
      expect(late.body.code).toBe(401);
      expect(await refusedStatus(shortLived.url, token, me.body.data.accountInfo.personId)).toBe(401);
    } finally {
      await shortLived.close();
    }
  });

  it('when a person signs out, then that token is dead and their other tokens still work', async () => {
    const one = await api.login('admin', 'admin123');
    const two = await api.login('admin', 'admin123');
    const signedOut = await callerOf(api, one).post('/auth/signOut');
    expect(signedOut.status).toBe(200);
    // The gateway ends the token's tabs on this mark (docs/internal-contract.md).
    expect(signedOut.headers['x-token-revoked']).toBe('1');
    expect((await callerOf(api, one).get('/auth/current/user')).status).toBe(401);
    expect((await callerOf(api, two).get('/auth/current/user')).status).toBe(200);
    expect((await callerOf(api, 'not-a-token').get('/auth/current/user')).status).toBe(401);
  });

  it('when the password is changed, then the other sessions end, a new token is answered and the old password no longer works', async () => {
    await newAccount('pwchange');
    const first = await api.login('pwchange', 'Secret123');
    const second = await api.login('pwchange', 'Secret123');
    const personId = (await callerOf(api, first).get('/auth/current/user')).body.data.accountInfo.personId;

    const wrongOld = await callerOf(api, first).post('/account/checkpassword', {
      personId,
      objStr: 'nope',
      newPassword: 'Better456',
    });
    expect(wrongOld.status).toBe(400);
    expect((await callerOf(api, second).get('/auth/current/user')).status).toBe(200);

    const changed = await callerOf(api, first).post('/account/checkpassword', {
      personId,
      objStr: 'Secret123',
      newPassword: 'Better456',
    });
    expect(changed.status).toBe(200);
    const fresh = changed.body.data.token as string;
    expect((await callerOf(api, second).get('/auth/current/user')).status).toBe(401);
    expect((await callerOf(api, fresh).get('/auth/current/user')).status).toBe(200);
    expect((await tokenCall({ username: 'pwchange', password: 'Secret123' })).status).toBe(401);
    expect((await tokenCall({ username: 'pwchange', password: 'Better456' })).status).toBe(200);
  });

  it('when a staff account has no role, then sign-in is refused with "no permission to go to this page"', async () => {
    const { accId } = await newAccount('norole');
    const admin = await api.login('admin', 'admin123');
    expect((await callerOf(api, admin).post('/account/update', { accId, roleId: null })).status).toBe(200);
    const res = await tokenCall({ username: 'norole', password: 'Secret123' });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe("You don't have permission to go to this page");
  });

  it('when a password is wrong three times, then the next sign-in needs a solved captcha, which is checked once', async () => {
    await newAccount('captcha1');
    for (let i = 0; i < 3; i++) {
      const miss = await tokenCall({ username: 'captcha1', password: 'wrong' });
      expect(miss.status).toBe(401);
      expect(miss.body.data.captchaRequired).toBe(i === 2);
    }
    const without = await tokenCall({ username: 'captcha1', password: 'Secret123' });
    expect(without.status).toBe(428);
    expect(without.body.data.captchaRequired).toBe(true);

    const puzzle = (await api.http.get('/captcha/puzzle')).body.data;
    expect(puzzle.background).toMatch(/^data:image\/png;base64,/);
    expect(puzzle.piece).toMatch(/^data:image\/png;base64,/);
    const [{ x }] = await api.db.select({ x: captcha.x }).from(captcha).where(eq(captcha.id, puzzle.captchaId));

    const missed = await tokenCall({
      username: 'captcha1',
      password: 'Secret123',
      captchaId: puzzle.captchaId,
      captchaX: x + 40,
    });
    expect(missed.status).toBe(428);
    expect(missed.body.msg).toBe('Verification failed');

    const next = (await api.http.get('/captcha/puzzle')).body.data;
    const [{ x: x2 }] = await api.db.select({ x: captcha.x }).from(captcha).where(eq(captcha.id, next.captchaId));
    const solved = await tokenCall({
      username: 'captcha1',
      password: 'Secret123',
      captchaId: next.captchaId,
      captchaX: x2 + 2,
    });
    expect(solved.status).toBe(200);
    // Used once: the same solved puzzle does not open a second failing streak.
    const reused = await api.http.post('/captcha/check').send({ captchaId: next.captchaId, captchaX: x2 });
    expect(reused.body.data.passed).toBe(false);
  });

  it('when sign-ins keep failing, then 429 with a wait, the same for a known and an unknown account', async () => {
    await newAccount('limited');
    const fromAddress = { 'X-Forwarded-For': '203.0.113.7' };
    const statuses = async (username: string) => {
      const seen: number[] = [];
      for (let i = 0; i < 11; i++) {
        const puzzle = (await api.http.get('/captcha/puzzle')).body.data;
        const [{ x }] = await api.db.select({ x: captcha.x }).from(captcha).where(eq(captcha.id, puzzle.captchaId));
        const res = await tokenCall(
          { username, password: 'wrong', captchaId: puzzle.captchaId, captchaX: x },
          fromAddress,
        );
        seen.push(res.status);
        if (res.status === 429) {
          expect(res.body.msg).toMatch(/try again in \d+ seconds?/i);
          expect(res.body.data.retryAfter).toBeGreaterThan(0);
        }
      }
      return seen;
    };
    const known = await statuses('limited');
    const unknown = await statuses('nobody-here');
    expect(known).toEqual([...Array(10).fill(401), 429]);
    expect(unknown).toEqual(known);
    // The right password does not get through while limited.
    const blocked = await tokenCall({ username: 'limited', password: 'Secret123' }, fromAddress);
    expect(blocked.status).toBe(429);
  });
});
