// Password guessing (issue 14 item 2): the limits hold however many addresses a guesser uses,
// even with every captcha solved by a script, and a stranger's guessing never locks the owner
// out of a browser that signed in before. The tests are the gateway here (the api believes
// X-Forwarded-For from loopback), so each guess can come from an address of its choosing; time
// is moved forward by ageing the failure rows, never by waiting.
import { eq, like, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captcha, loginFailure } from '../src/db/schema';
import { FREE_FAILURES_PER_ACCOUNT, MAX_ACCOUNT_WAIT_MS } from '../src/modules/auth/login-limiter';
import { callerOf, requestToken, startTestApi, testEngines, type TestApi } from './kit';

describe.each(testEngines())('sign-in limits on %s', (engine) => {
  let api: TestApi;
  let adminToken: string;
  let staffRoleId: number;
  let addressSeq = 0;
  /** A new address, as a new client behind the gateway would have. */
  const newAddress = () => {
    addressSeq++;
    return `198.51.${Math.floor(addressSeq / 250)}.${(addressSeq % 250) + 1}`;
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    adminToken = await api.login('admin', 'admin123');
    const roles = await callerOf(api, adminToken).post('/base/sysrole/page', { page: 1, limit: 100 });
    staffRoleId = roles.body.data.list.find((r: { roleValue: string }) => r.roleValue === 'STAFF').roleId;
  });
  afterAll(async () => api?.close());

  async function newAccount(username: string, password = 'Secret123'): Promise<void> {
    const res = await callerOf(api, adminToken).post('/account/update', {
      username,
      password,
      name: `Tester ${username}`,
      roleId: staffRoleId,
    });
    expect(res.status).toBe(200);
  }

  /** A captcha solved perfectly (as a script solves it): the limits must not care. */
  async function solvedCaptcha(address: string): Promise<{ captchaId: string; captchaX: number }> {
    const puzzle = await api.http.get('/captcha/puzzle').set('X-Forwarded-For', address);
    expect(puzzle.status).toBe(200);
    const [{ x }] = await api.db
      .select({ x: captcha.x })
      .from(captcha)
      .where(eq(captcha.id, puzzle.body.data.captchaId));
    return { captchaId: puzzle.body.data.captchaId, captchaX: x };
  }

  async function signIn(
    username: string,
    password: string,
    address: string,
    headers: Record<string, string> = {},
    withCaptcha = true,
  ): Promise<{
    status: number;
    body: { msg: string; data: { retryAfter?: number } | null };
    headers: Record<string, string | string[]>;
  }> {
    const captcha = withCaptcha ? await solvedCaptcha(address) : {};
    const res = await requestToken(api, { username, password, ...captcha }, { 'X-Forwarded-For': address, ...headers });
    return { status: res.status, body: res.body, headers: res.headers as Record<string, string | string[]> };
  }

  /** Moves this name's failures `ms` into the past, as if that much time had gone by (an account's are counted as `name@<company>`). */
  async function age(username: string, ms: number): Promise<void> {
    await api.db
      .update(loginFailure)
      .set({ at: sql`${loginFailure.at} - make_interval(secs => ${ms / 1000})` })
      .where(or(eq(loginFailure.username, username), like(loginFailure.username, `${username}@%`)));
  }

  it('when one account is guessed from a new address each time with solved captchas, then after 10 failures every attempt waits 1 s, 2 s, 4 s … up to a minute, the right password too', async () => {
    await newAccount('target1');
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) {
      expect((await signIn('target1', `guess-${i}`, newAddress())).status).toBe(401);
    }
    const limited = await signIn('target1', 'Secret123', newAddress(), { lang: 'zh-TW' });
    expect(limited.status).toBe(429);
    expect(limited.body.data?.retryAfter).toBe(1);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.body.msg).toMatch(/[\u4e00-\u9fff]/);

    // Each failure after the tenth doubles the wait, up to a minute.
    const waits: number[] = [];
    for (let wait = 1; waits.length < 8;) {
      await age('target1', wait * 1000);
      expect((await signIn('target1', `again-${waits.length}`, newAddress())).status).toBe(401);
      const next = await signIn('target1', 'Secret123', newAddress());
      expect(next.status).toBe(429);
      wait = next.body.data!.retryAfter!;
      waits.push(wait);
    }
    expect(waits).toEqual([2, 4, 8, 16, 32, 60, 60, 60]);
    expect(MAX_ACCOUNT_WAIT_MS).toBe(60_000);

    // Once the wait is over, the right password gets in.
    await age('target1', 60_000);
    expect((await signIn('target1', 'Secret123', newAddress())).status).toBe(200);
  });

  it('when 30 guesses at one account arrive at once from 30 addresses, then 10 passwords are checked (one more per wait the burst outlasts) and the rest answer 429', async () => {
    await newAccount('target2');
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => (await signIn('target2', `burst-${i}`, newAddress())).status),
    );
    // The attempts take the account's lock one after another. On a loaded machine the burst can
    // outlast the first waits (1 s, then 2 s …), and then one more password is checked per wait
    // that ran out, as designed; never more.
    const waitsOver = Math.floor(Math.log2((Date.now() - started) / 1000 + 1));
    const checked = answers.filter((s) => s === 401).length;
    expect(checked).toBeGreaterThanOrEqual(FREE_FAILURES_PER_ACCOUNT);
    expect(checked).toBeLessThanOrEqual(FREE_FAILURES_PER_ACCOUNT + waitsOver);
    expect(answers.filter((s) => s === 429)).toHaveLength(30 - checked);
  });

  it('when the owner signed in from this browser before, then a stranger guessing from elsewhere does not lock them out', async () => {
    await newAccount('owner1');
    const first = await signIn('owner1', 'Secret123', newAddress());
    expect(first.status).toBe(200);
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/^pm_device_\d+=[^;]+; Max-Age=\d+; HttpOnly; SameSite=Strict/);
    expect(setCookie).not.toMatch(/Path=/i);
    const cookie = setCookie.split(';')[0];

    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT + 2; i++) await signIn('owner1', `stranger-${i}`, newAddress());
    expect((await signIn('owner1', 'Secret123', newAddress())).status).toBe(429);
    // The owner's browser, even from a new address (a train, a hotel), gets in …
    expect((await signIn('owner1', 'Secret123', newAddress(), { Cookie: cookie })).status).toBe(200);
    // … and a guesser holding a tampered or another account's cookie does not.
    const tampered = cookie.replace(/\.(.)/, (_m, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
    expect((await signIn('owner1', 'Secret123', newAddress(), { Cookie: tampered })).status).toBe(429);
  });

  it('when one address sprays a password over many account names, then its 31st failure answers 429 and other addresses are not affected', async () => {
    const sprayer = newAddress();
    const statuses: number[] = [];
    // One failure per name: no captcha is asked for.
    for (let i = 0; i < 31; i++) statuses.push((await signIn(`spray-${i}`, 'password1', sprayer, {}, false)).status);
    expect(statuses).toEqual([...Array<number>(30).fill(401), 429]);
    expect((await signIn('spray-0', 'password1', newAddress(), {}, false)).status).toBe(401);
  });

  it('when an address asks for more than 30 captcha pictures a minute, then 429 in its language, and other addresses still get pictures', async () => {
    const greedy = newAddress();
    const statuses: number[] = [];
    let last: {
      status: number;
      body: { msg: string; data: { retryAfter: number } };
      headers: Record<string, string>;
    } | null = null;
    for (let i = 0; i < 31; i++) {
      const res = await api.http.get('/captcha/puzzle').set({ 'X-Forwarded-For': greedy, lang: 'zh-CN' });
      statuses.push(res.status);
      last = res as unknown as typeof last;
    }
    expect(statuses).toEqual([...Array<number>(30).fill(200), 429]);
    expect(last!.body.msg).toMatch(/验证图片/);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect((await api.http.get('/captcha/puzzle').set('X-Forwarded-For', newAddress())).status).toBe(200);
  });
});

describe('whose X-Forwarded-For the api believes', () => {
  it('when the api trusts only another gateway address, then a client cannot pick its address with the header', async () => {
    const api = await startTestApi('pglite', { trustProxy: '10.1.2.3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        const guess = { username: `xff-${i}`, password: 'password1' };
        const res = await requestToken(api, guess, { 'X-Forwarded-For': `203.0.113.${i}` });
        statuses.push(res.status);
      }
      // Every guess counted for the one real address (loopback): the 31st is refused.
      expect(statuses).toEqual([...Array<number>(30).fill(401), 429]);
    } finally {
      await api.close();
    }
  });
});
