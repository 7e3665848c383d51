// What one account may upload (issue 14 item 7): a quota of bytes per hour and per day, past
// which a clear translated 429 names the limit; uploads stream to a temporary file on disk, and
// no temporary file is left after a refused, invalid or aborted upload.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/sql';
import { incomingDirOf } from '../src/modules/upload/upload.routes';
import { signInAll, startTestApi, testEngines, type Session, type TestApi } from './kit';

const MB = 1024 * 1024;
/** A text file of 3,000,000 bytes: accepted by /upload/uploadfile as text. */
const threeMegabytes = Buffer.alloc(3_000_000, 'a');

async function until(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

describe.each(testEngines())('upload limits on %s', (engine) => {
  let api: TestApi;
  let uploadDir: string;
  let incoming: string;
  let people: Record<string, Session>;
  const auth = (who: string) => people[who].headers;
  const upload = (who: string, bytes: Buffer, lang = 'en') =>
    api.http.post('/upload/uploadfile/chat').set(auth(who)).set('lang', lang).attach('file', bytes, 'notes.txt');
  const incomingFiles = async () => readdir(incoming).catch(() => []);
  /** Stored files (not thumbnails) under the upload directory, incoming excluded. */
  const storedCount = async () =>
    (await readdir(uploadDir, { recursive: true })).filter((p) => /\/\d{6}\//.test(String(p))).length;

  beforeAll(async () => {
    uploadDir = await mkdtemp(join(tmpdir(), 'pm-upload-limits-'));
    incoming = incomingDirOf(uploadDir);
    api = await startTestApi(engine, { uploadDir, uploadQuotaMbPerHour: 12, uploadQuotaMbPerDay: 20 });
    people = await signInAll(api, {
      resident: 'resident1',
      neighbour: 'resident2',
      other: 'resident4',
      staff: 'staff',
    });
  });
  afterAll(async () => {
    await api?.close();
    await rm(uploadDir, { recursive: true, force: true });
  });

  it('when one account uploads past its hourly quota, even all at once, then exactly what fits is stored and the rest get a translated 429 naming the limit', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => upload('resident', threeMegabytes)));
    const statuses = answers.map((r) => r.status);
    // 12 MB an hour: four files of 3,000,000 bytes (with their multipart framing) fit, a fifth does not.
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.body.msg).toMatch(/12 MB per hour/);
    expect(refused.body.data.retryAfterSeconds).toBeGreaterThan(0);
    const zh = await upload('resident', threeMegabytes, 'zh-TW');
    expect(zh.status).toBe(429);
    expect(zh.body.msg).toContain('每小時 12 MB');
    // Another account has its own quota.
    expect((await upload('neighbour', threeMegabytes)).status).toBe(200);
    expect(await incomingFiles()).toEqual([]);
  });

  it('when an account uploads past its daily quota over several hours, then 429 names the daily limit', async () => {
    // Two hours ago this account already uploaded 18 MB: within today's 20 MB, not within this hour's.
    const [{ id }] = await queryRows<{ id: number }>(
      api.db,
      sql`select a.id from account a where a.username = 'resident4'`,
    );
    await api.db.execute(
      sql`insert into account_usage (account_id, kind, amount, at) values (${id}, 'upload-bytes', ${18 * MB}, now() - interval '2 hours')`,
    );
    const res = await upload('other', threeMegabytes);
    expect(res.status).toBe(429);
    expect(res.body.msg).toMatch(/20 MB per day/);
  });

  it('when an upload is invalid or too large, then it is refused, nothing is stored and no temporary file is left', async () => {
    const before = await storedCount();
    const fake = await api.http
      .post('/upload/uploadimage/complain')
      .set(auth('staff'))
      .attach('file', Buffer.from('not a picture at all'), { filename: 'photo.png', contentType: 'image/png' });
    expect(fake.status).toBe(400);
    const big = await api.http
      .post('/upload/uploadimage/user')
      .set(auth('staff'))
      .attach('file', Buffer.alloc(5 * MB + 10, 1), { filename: 'me.png', contentType: 'image/png' });
    expect([400, 413]).toContain(big.status);
    expect(big.body.msg).toMatch(/5 MB/);
    expect(await storedCount()).toBe(before);
    expect(await incomingFiles()).toEqual([]);
  });

  it('when a client stops in the middle of an upload, then the file it was streaming to disk is removed and only the bytes that arrived count', async () => {
    const [{ id }] = await queryRows<{ id: number }>(api.db, sql`select id from account where username = 'staff'`);
    const counted = async () => {
      const [u] = await queryRows<{ total: string }>(
        api.db,
        sql`select coalesce(sum(amount), 0)::text as total from account_usage where account_id = ${id} and kind = 'upload-bytes'`,
      );
      return Number(u.total);
    };
    const before = await counted();
    const boundary = 'pm-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    const declared = head.length + 4 * MB + 100;
    const url = new URL('/upload/uploadfile/chat', api.url);
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        ...auth('staff'),
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(declared),
      },
    });
    req.on('error', () => undefined);
    req.write(head);
    req.write(Buffer.alloc(MB, 'b'));
    // The part is being written to a temporary file, not kept in memory.
    const streamed = await until(async () => {
      const [name] = await incomingFiles();
      return name !== undefined && (await stat(join(incoming, name)).catch(() => null))?.size === MB;
    });
    expect(streamed).toBe(true);
    req.destroy();
    expect(await until(async () => (await incomingFiles()).length === 0)).toBe(true);
    expect((await api.http.get('/health')).status).toBe(200);
    // The quota keeps what arrived (at least the 1 MB written), not the 4 MB declared.
    expect(await until(async () => (await counted()) - before < declared)).toBe(true);
    expect((await counted()) - before).toBeGreaterThanOrEqual(MB);
  });
});
