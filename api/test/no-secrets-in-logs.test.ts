// No secret in the api's log (issue 14 items 9 and 11): while sign-in, password change and
// reset, the forgot-password flow (mail kept in the outbox, which used to log its text) and a
// stray request on the real-time path run, everything the api logs is captured — at debug level
// — and none of the tokens, codes, passwords or code hashes appears in it.
import { createHash } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../src/db/schema';
import { callerOf, requestToken, startTestApi, testEngines, type TestApi } from './kit';

describe.each(testEngines())('the log on %s', (engine) => {
  let api: TestApi;
  const lines: string[] = [];

  beforeAll(async () => {
    api = await startTestApi(engine, {
      logLevel: 'debug',
      logDestination: { write: (line: string) => lines.push(line) },
    });
  });
  afterAll(async () => api?.close());

  it('when people sign in, change and reset passwords and use a reset code, then no token, code or password is logged', async () => {
    const secrets: string[] = [];
    const signIn = await requestToken(api, { username: 'admin', password: 'admin123' });
    const admin = signIn.body.access_token as string;
    secrets.push(admin, 'admin123', String(signIn.headers['set-cookie']).split(';')[0].split('=')[1]);
    const me = (await callerOf(api, admin).get('/auth/current/user')).body.data.accountInfo;

    // The administrator resets the staff member's password; the staff member changes it.
    const staffToken = await api.login('staff', 'staff123');
    const staffMe = (await callerOf(api, staffToken).get('/auth/current/user')).body.data.accountInfo;
    const reset = await callerOf(api, admin).get(`/account/reset/password/${staffMe.accId}`);
    expect(reset.status).toBe(200);
    const given = reset.body.data.password as string;
    const afterReset = await api.login('staff', given);
    const changed = await callerOf(api, afterReset).post('/account/checkpassword', {
      personId: staffMe.personId,
      objStr: given,
      newPassword: 'Changed456',
    });
    expect(changed.status).toBe(200);
    secrets.push(staffToken, given, afterReset, changed.body.data.token, 'Changed456', 'staff123');

    // Forgot password without SMTP: the mail goes to the outbox, the code never to the log.
    expect((await api.http.post('/account/forget/password').send({ email: 'admin@example.com' })).status).toBe(200);
    let text = '';
    for (let i = 0; i < 100 && !text; i++) {
      const [mail] = await api.db
        .select({ text: mailOutbox.text })
        .from(mailOutbox)
        .where(eq(mailOutbox.to, 'admin@example.com'))
        .orderBy(desc(mailOutbox.id))
        .limit(1);
      text = mail?.text ?? '';
      if (!text) await new Promise((r) => setTimeout(r, 20));
    }
    const code = /\b(\d{6})\b/.exec(text)![1];
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect(
      (await api.http.post('/account/check/forgetpwd/code').send({ email: 'admin@example.com', code: wrongCode }))
        .status,
    ).toBe(400);
    expect(
      (await api.http.post('/account/check/forgetpwd/code').send({ email: 'admin@example.com', code })).status,
    ).toBe(200);
    const renewed = await api.http
      .post('/account/forgetpwd/reset')
      .send({ email: 'admin@example.com', code, newPassword: 'Renewed789' });
    expect(renewed.status).toBe(200);
    secrets.push(code, wrongCode, createHash('sha256').update(code).digest('hex'), 'Renewed789');

    // A plain request on the real-time channel's path carries a token in the path.
    const fresh = await api.login('admin', 'Renewed789');
    secrets.push(fresh);
    expect((await api.http.get(`/${fresh}/${me.personId}`)).status).toBe(404);
    expect((await api.http.get(`/${fresh}/${me.personId}?token=${fresh}`)).status).toBe(404);

    const log = lines.join('');
    expect(log).toContain('mail stored in the outbox');
    expect(log).toContain('[redacted]');
    for (const secret of secrets) expect(log, `the log holds "${secret.slice(0, 12)}…"`).not.toContain(secret);
  });
});
