// Wall screens that run for months (issue 34): a wall screen's token (an account holding only
// wall:view) renews itself while it is used, where a staff token ends at its TTL; an
// administrator ends it at once ("Wall sessions" in the README; token.service.ts). Across api
// processes: two-processes.postgres.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApi, testEngines, type TestApi } from './kit';

/** Short, so three lifetimes pass within a test; long enough for a call on a busy machine. */
const TTL_SECONDS = 6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(testEngines())('wall sessions on %s', (engine) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi(engine, { tokenTtlSeconds: TTL_SECONDS });
  });
  afterAll(async () => api?.close());

  it('when a wall screen keeps calling past three lifetimes of its token, then every call is answered, while a staff token of the same age is refused', async () => {
    const wall = await signIn(api, 'wall');
    const staff = await signIn(api, 'staff');
    const started = Date.now();
    const statuses: number[] = [];
    while (Date.now() - started < 3 * TTL_SECONDS * 1000) {
      statuses.push((await wall.get('/wall/feed')).status);
      await sleep(TTL_SECONDS * 200);
    }
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect((await staff.get('/auth/current/user')).status).toBe(401);
  }, 60_000);

  it("when the gateway asks who a wall screen's token belongs to, then it learns that the session renews itself, and a staff token's does not", async () => {
    const wall = await signIn(api, 'wall');
    const staff = await signIn(api, 'staff');
    const wallIdentity = (await wall.get('/realtime/identity')).body.data;
    const staffIdentity = (await staff.get('/realtime/identity')).body.data;
    expect(wallIdentity.renews).toBe(true);
    expect(staffIdentity.renews).toBe(false);
    // Past half its life the wall token's expiry moves forward; the staff token's stays.
    await sleep(TTL_SECONDS * 600);
    const later = (await wall.get('/realtime/identity')).body.data;
    expect(Date.parse(later.expiresAt)).toBeGreaterThan(Date.parse(wallIdentity.expiresAt));
    expect(Date.parse((await staff.get('/realtime/identity')).body.data.expiresAt)).toBe(
      Date.parse(staffIdentity.expiresAt),
    );
  }, 30_000);

  it("when an administrator ends a wall account's sessions, then its token is refused on the very next call", async () => {
    const admin = await signIn(api, 'admin');
    const wall = await signIn(api, 'wall');
    expect((await wall.get('/wall/feed')).status).toBe(200);
    const ended = await admin.post(`/account/sessions/end/${wall.accId}`);
    expect(ended.status).toBe(200);
    expect((await wall.get('/wall/feed')).status).toBe(401);
    // Signing in again gives the screen a new session.
    expect((await (await signIn(api, 'wall')).get('/wall/feed')).status).toBe(200);
  });

  it('when a staff member without account management, or an administrator for their own account, tries to end sessions, then it is refused', async () => {
    const staff = await signIn(api, 'staff');
    const admin = await signIn(api, 'admin');
    const wall = await signIn(api, 'wall');
    expect((await staff.post(`/account/sessions/end/${wall.accId}`)).status).toBe(403);
    expect((await admin.post(`/account/sessions/end/${admin.accId}`)).status).toBe(409);
    expect((await wall.get('/wall/feed')).status).toBe(200);
  });
});
