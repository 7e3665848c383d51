// The upload service over HTTP (issue 4, SPEC §7 "Uploads"): content is sniffed, not trusted
// from the name or type header; oversize and traversal attempts are refused without a 5xx;
// stored files come back with their content type, cache headers and through ?imageUrl=.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApi, type Session, type TestApi } from './kit';

describe('uploads over HTTP', () => {
  let api: TestApi;
  let staff: Session;
  let png: Buffer;

  beforeAll(async () => {
    api = await startTestApi('pglite');
    staff = await signIn(api, 'staff');
    png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => api?.close());

  it('when a real picture is uploaded under any name, then both paths are answered and served with content type and long cache', async () => {
    const res = await api.http
      .post('/upload/uploadimage/complain')
      .set(staff.headers)
      .attach('file', png, { filename: 'holiday.txt', contentType: 'text/plain' });
    expect(res.status).toBe(200);
    const { originalImagePath, thumbnailPath } = res.body.data;
    expect(originalImagePath).toMatch(/\.png$/);
    expect(originalImagePath).not.toContain('holiday');

    const original = await api.http.get(originalImagePath.replace(/^\/api/, '')).buffer(true);
    expect(original.status).toBe(200);
    expect(original.headers['content-type']).toBe('image/png');
    expect(original.headers['cache-control']).toMatch(/max-age=\d{6,}/);
    expect(Buffer.compare(original.body as Buffer, png)).toBe(0);

    const thumb = await api.http.get(thumbnailPath.replace(/^\/api/, '')).buffer(true);
    expect(thumb.status).toBe(200);
    const meta = await sharp(thumb.body as Buffer).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(300);

    const viaQuery = await api.http.get('/upload/image').query({ imageUrl: originalImagePath }).buffer(true);
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.headers['content-type']).toBe('image/png');
  });

  it('when a text file is renamed to .png and sent as image/png, then "please select the correct file format" and nothing is stored', async () => {
    const fake = Buffer.from('#!/bin/sh\necho not a picture\n');
    const res = await api.http
      .post('/upload/uploadimage/complain')
      .set(staff.headers)
      .set('lang', 'en')
      .attach('file', fake, { filename: 'photo.png', contentType: 'image/png' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Please select the correct file format');
    const zh = await api.http
      .post('/upload/uploadimage/complain')
      .set(staff.headers)
      .set('lang', 'zh-CN')
      .attach('file', fake, { filename: 'photo.png', contentType: 'image/png' });
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toMatch(/[\u4e00-\u9fff]/);
  });

  it('when a file is over the limit of its kind, then a clear 4xx names the limit and the server stays up', async () => {
    // An avatar (kind "user") may be 5 MB: a 6 MB picture-looking body is refused by size.
    const big = Buffer.concat([png.subarray(0, 16), Buffer.alloc(6 * 1024 * 1024, 1)]);
    const res = await api.http
      .post('/upload/uploadimage/user')
      .set(staff.headers)
      .attach('file', big, { filename: 'me.png', contentType: 'image/png' });
    expect([400, 413]).toContain(res.status);
    expect(res.body.msg).toMatch(/5 MB/);
    const huge = Buffer.alloc(21 * 1024 * 1024, 7);
    const over = await api.http
      .post('/upload/uploadfile/chat')
      .set(staff.headers)
      .attach('file', huge, { filename: 'big.zip' });
    expect([400, 413]).toContain(over.status);
    expect(over.body.msg).toMatch(/20 MB/);
    expect((await api.http.get('/health')).status).toBe(200);
  });

  it('when a name or kind tries to leave the upload directory, then it is refused or ignored, never followed', async () => {
    const named = await api.http
      .post('/upload/uploadimage/complain')
      .set(staff.headers)
      .attach('file', png, { filename: '../../../etc/passwd.png' });
    expect(named.status).toBe(200);
    expect(named.body.data.originalImagePath).not.toContain('..');
    expect(named.body.data.originalImagePath).not.toContain('passwd');

    for (const kind of ['..%2F..%2Fetc', '%2e%2e', 'a%00b', 'UPPER%2F..']) {
      const res = await api.http
        .post(`/upload/uploadimage/${kind}`)
        .set(staff.headers)
        .attach('file', png, { filename: 'a.png' });
      expect(res.status, kind).toBeGreaterThanOrEqual(400);
      expect(res.status, kind).toBeLessThan(500);
    }
    for (const path of [
      '/upload/files/..%2F..%2F..%2Fetc%2Fpasswd',
      '/upload/files/../../package.json',
      '/upload/files/%2e%2e/%2e%2e/package.json',
    ]) {
      const res = await api.http.get(path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.text).not.toContain('root:');
    }
    const query = await api.http.get('/upload/image').query({ imageUrl: '/api/upload/files/../../../../etc/passwd' });
    expect(query.status).toBeGreaterThanOrEqual(400);
    expect(query.status).toBeLessThan(500);
  });

  it('when no file, or a batch with one bad file, is sent, then the whole call answers 400', async () => {
    const none = await api.http.post('/upload/uploadimage/complain').set(staff.headers).field('x', 'y');
    expect(none.status).toBe(400);
    const batch = await api.http
      .post('/upload/uploadimage/batch/complain')
      .set(staff.headers)
      .attach('file', png, { filename: 'a.png' })
      .attach('file', Buffer.from('not an image'), { filename: 'b.png' });
    expect(batch.status).toBe(400);
    const good = await api.http
      .post('/upload/uploadimage/batch/complain')
      .set(staff.headers)
      .attach('file', png, { filename: 'a.png' })
      .attach('file', png, { filename: 'b.png' });
    expect(good.status).toBe(200);
    expect(good.body.data).toHaveLength(2);
  });

  it('when nobody is signed in, then uploading is refused with 401', async () => {
    const res = await api.http.post('/upload/uploadimage/complain').attach('file', png, { filename: 'a.png' });
    expect(res.status).toBe(401);
  });
});
