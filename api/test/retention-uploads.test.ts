// Uploads of abandoned drafts (issue 35, README "Data that stays bounded"): an upload a saved
// record names is claimed (upload_file.claimed_at) and kept; one nobody saved is pruned with its
// files once older than RETENTION_DRAFT_UPLOAD_DAYS, in small batches, by the background pruner.
// Time is moved by ageing the rows, never by waiting.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RETENTION_DEFAULTS, pruneDraftUploads, startRetention } from '../src/db/retention';
import { queryRows } from '../src/db/sql';
import { signIn, startTestApi, testEngines, type Session, type TestApi } from './kit';

describe.each(testEngines())('uploads of abandoned drafts on %s', (engine) => {
  let api: TestApi;
  let resident: Session;
  let png: Buffer;
  const uploadDir = mkdtempSync(join(tmpdir(), 'pm-draft-uploads-'));

  beforeAll(async () => {
    // The api's own background pruning stays out of the way (an hour): the tests call it, but the last.
    api = await startTestApi(engine, { uploadDir, retentionIntervalMs: 3600_000 });
    resident = await signIn(api, 'resident1');
    png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#a73' } })
      .png()
      .toBuffer();
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  const upload = async () => {
    const res = await api.http
      .post('/upload/uploadimage/complain')
      .set(resident.headers)
      .attach('file', png, { filename: 'p.png', contentType: 'image/png' });
    expect(res.status).toBe(200);
    return res.body.data as { originalImagePath: string; thumbnailPath: string };
  };
  const fileOf = (path: string) => join(uploadDir, path.replace(/^(\/api)?\/upload\/files\//, ''));
  const rowOf = async (path: string) =>
    (
      await queryRows<{ claimed: boolean }>(
        api.db,
        sql`select claimed_at is not null as claimed from upload_file where path = ${path.replace(/^\/api/, '')}`,
      )
    )[0];
  const age = (path: string, days: number) =>
    api.db.execute(
      sql`update upload_file set created_at = now() - make_interval(days => ${days}) where path = ${path.replace(/^\/api/, '')}`,
    );

  it('when a complaint is saved with an uploaded picture, then the upload is claimed; an upload nobody saved is not', async () => {
    const saved = await upload();
    const draft = await upload();
    const [house] = (await api.http.get('/app/house/list').set(resident.headers)).body.data as {
      houseType: number;
      houseId: number;
    }[];
    const res = await api.http
      .post('/app/complain/save')
      .set(resident.headers)
      .send({ name: 'Leak', note: 'With a picture', img: saved.thumbnailPath, ...house });
    expect(res.status).toBe(200);
    expect(await rowOf(saved.originalImagePath)).toEqual({ claimed: true });
    expect(await rowOf(draft.originalImagePath)).toEqual({ claimed: false });
  });

  it('when the claim of an upload cannot be written, then the record naming it is not saved either (one transaction); a refused save leaves the upload unclaimed', async () => {
    const refused = await upload();
    const path = refused.originalImagePath.replace(/^\/api/, '');
    // The database refuses this one upload's claim, as a connection cut at that statement would.
    await api.db.execute(
      sql.raw(`create or replace function pm_test_refuse_claim() returns trigger language plpgsql as $$
        begin raise exception 'claim refused'; end $$`),
    );
    await api.db.execute(
      sql.raw(`create trigger pm_test_refuse_claim before update of claimed_at on upload_file for each row
        when (new.path = '${path}') execute function pm_test_refuse_claim()`),
    );
    try {
      const [house] = (await api.http.get('/app/house/list').set(resident.headers)).body.data as {
        houseType: number;
        houseId: number;
      }[];
      const note = `Claim refused ${Date.now()}`;
      const res = await api.http
        .post('/app/complain/save')
        .set(resident.headers)
        .send({ name: 'Leak', note, img: refused.thumbnailPath, ...house });
      expect(res.status).not.toBe(200);
      const stored = await queryRows<{ n: number }>(
        api.db,
        sql`select count(*)::int as n from complain where note = ${note}`,
      );
      expect(stored[0].n).toBe(0);
      expect(await rowOf(refused.originalImagePath)).toEqual({ claimed: false });
    } finally {
      await api.db.execute(sql.raw('drop trigger if exists pm_test_refuse_claim on upload_file'));
      await api.db.execute(sql.raw('drop function if exists pm_test_refuse_claim()'));
    }
    // A save refused by the api (a house that is not the resident's) claims nothing.
    const draft = await upload();
    const bad = await api.http
      .post('/app/complain/save')
      .set(resident.headers)
      .send({ name: 'Leak', note: 'Not my house', img: draft.originalImagePath, houseType: 1, houseId: 999_999 });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expect(await rowOf(draft.originalImagePath)).toEqual({ claimed: false });
  });

  it('when unclaimed uploads are older than the retention, then batches delete their rows and files and keep the claimed and the recent ones', async () => {
    const claimed = await upload();
    const [house] = (await api.http.get('/app/house/list').set(resident.headers)).body.data as {
      houseType: number;
      houseId: number;
    }[];
    await api.http
      .post('/app/complain/save')
      .set(resident.headers)
      .send({ name: 'Door', note: 'Picture', img: claimed.originalImagePath, ...house })
      .expect(200);
    const old = [await upload(), await upload(), await upload()];
    const recent = await upload();
    for (const u of [claimed, ...old]) await age(u.originalImagePath, 8);
    for (const u of old) expect(existsSync(fileOf(u.originalImagePath))).toBe(true);

    let deleted = 0;
    for (let n = -1; n !== 0;) {
      n = await pruneDraftUploads(api.db, uploadDir, 7, 2);
      expect(n).toBeLessThanOrEqual(2);
      deleted += n;
    }
    expect(deleted).toBeGreaterThanOrEqual(3);
    for (const u of old) {
      expect(await rowOf(u.originalImagePath)).toBeUndefined();
      expect(existsSync(fileOf(u.originalImagePath))).toBe(false);
      expect(existsSync(fileOf(u.thumbnailPath))).toBe(false);
    }
    for (const u of [claimed, recent]) {
      expect(await rowOf(u.originalImagePath)).toBeDefined();
      expect(existsSync(fileOf(u.originalImagePath))).toBe(true);
      expect(existsSync(fileOf(u.thumbnailPath))).toBe(true);
    }
  });

  it('when the background pruner runs, then it removes an abandoned draft by itself', async () => {
    const draft = await upload();
    await age(draft.originalImagePath, 8);
    const errors: unknown[] = [];
    // The pruner as server.ts starts it (with the api's upload directory), every 50 ms.
    const stop = startRetention(api.db, RETENTION_DEFAULTS, {
      embedded: engine === 'pglite',
      uploadDir,
      intervalMs: 50,
      onError: (err) => errors.push(err),
    });
    try {
      await vi.waitFor(
        async () => {
          expect(await rowOf(draft.originalImagePath)).toBeUndefined();
          expect(existsSync(fileOf(draft.originalImagePath))).toBe(false);
        },
        { timeout: 30_000, interval: 100 },
      );
      expect(errors).toEqual([]);
    } finally {
      stop();
    }
  });
});
