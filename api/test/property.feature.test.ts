// Buildings (issue 18), on the feature template (work-orders.feature.test.ts): the happy path of
// blocks, floors and units, spaces and shops; codes (QR PNG decoded, the batch PDF's cells
// counted, the invite-code Excel read back); permission per call; another tenant's ids; bad input.
import { inflateSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import jsQR from 'jsqr';
import sharp from 'sharp';
import type request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callerOf,
  declaredCalls,
  makeCall,
  otherTenant,
  rowCounts,
  signIn,
  signInResident,
  staffWithout,
  startTestApi,
  testEngines,
  type FeatureCall,
  type ResidentSession,
  type Session,
  type TestApi,
} from './kit';

const TABLES = ['block', 'floor', 'unit', 'car_park', 'car_space', 'shop', 'person_house'] as const;

/** Every staff call of the domain: a valid body, and `record` when it addresses one record by id. */
const staffCalls: (FeatureCall & { record?: true })[] = [
  { method: 'post', path: '/base/block/list' },
  {
    method: 'post',
    path: '/base/block/save',
    body: () => ({ name: 'X', number: 'X', floorCount: 1, unitsPerFloor: 1 }),
  },
  {
    method: 'post',
    path: '/base/block/update',
    body: (id) => ({ blockId: id, name: 'X', number: 'X', houseType: 1 }),
    record: true,
  },
  { method: 'post', path: '/base/block/delete/{id}', record: true },
  { method: 'post', path: '/base/floor/update', body: (id) => ({ floorId: id, name: 'X' }), record: true },
  { method: 'post', path: '/base/floor/delete/{id}', record: true },
  { method: 'post', path: '/base/unit/page', body: () => ({ page: 1, limit: 100 }) },
  { method: 'post', path: '/base/unit/update', body: (id) => ({ unitId: id, name: 'Z9' }), record: true },
  { method: 'get', path: '/base/unit/info/{id}', record: true },
  { method: 'get', path: '/base/unit/download/qrcode/{id}', record: true },
  { method: 'post', path: '/base/unit/download/qrcodes', body: (id) => ({ ids: [id] }), record: true },
  { method: 'post', path: '/base/unit/download/invitecodes', body: (id) => ({ ids: [id] }), record: true },
  { method: 'post', path: '/base/unit/regenerate/{id}', record: true },
  { method: 'post', path: '/base/unit/revoke/{id}', record: true },
  { method: 'post', path: '/base/unit/delete/{id}', record: true },
  { method: 'post', path: '/base/carpark/park/list' },
  { method: 'post', path: '/base/carpark/park/save', body: () => ({ name: 'P9' }) },
  { method: 'post', path: '/base/carpark/park/delete/{id}', record: true },
  { method: 'post', path: '/base/carpark/page', body: () => ({ page: 1, limit: 100 }) },
  { method: 'post', path: '/base/carpark/pageAdvancedSearch', body: () => ({ page: 1, limit: 100 }) },
  {
    method: 'post',
    path: '/base/carpark/save',
    body: (id) => ({ carSpaceId: id, carParkId: id, carparkCode: 'Z', type: 1 }),
    record: true,
  },
  { method: 'get', path: '/base/carpark/info/{id}', record: true },
  { method: 'get', path: '/base/carpark/download/qrcode/{id}', record: true },
  { method: 'post', path: '/base/carpark/download/qrcodes', body: (id) => ({ ids: [id] }), record: true },
  { method: 'post', path: '/base/carpark/download/invitecodes', body: (id) => ({ ids: [id] }), record: true },
  { method: 'post', path: '/base/carpark/regenerate/{id}', record: true },
  { method: 'post', path: '/base/carpark/revoke/{id}', record: true },
  { method: 'post', path: '/base/carpark/delete/{id}', record: true },
  { method: 'post', path: '/base/shop/page', body: () => ({ page: 1, limit: 100 }) },
  { method: 'post', path: '/base/shop/save', body: (id) => ({ shopId: id, shopCode: 'Z' }), record: true },
  { method: 'get', path: '/base/shop/info/{id}', record: true },
  { method: 'get', path: '/base/shop/download/qrcode/{id}', record: true },
  { method: 'post', path: '/base/shop/download/qrcodes', body: (id) => ({ ids: [id] }), record: true },
  { method: 'post', path: '/base/shop/download/invitecodes', body: (id) => ({ ids: [id] }), record: true },
  { method: 'post', path: '/base/shop/regenerate/{id}', record: true },
  { method: 'post', path: '/base/shop/revoke/{id}', record: true },
  { method: 'post', path: '/base/shop/delete/{id}', record: true },
];

/** A binary answer as a Buffer. */
const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

/** The text a QR code PNG holds, read by a real decoder. */
async function decodeQr(png: Buffer): Promise<string | null> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ?? null;
}

/**
 * The text lines of a PDF the api made (pdfkit: compressed content streams, text shown as
 * `[<glyph ids>] TJ`, one ToUnicode map of the embedded label font), in drawing order. Enough to
 * read our own labels back without a PDF reader in CI.
 */
function pdfTextLines(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1');
  const streams: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    try {
      streams.push(inflateSync(pdf.subarray(start, raw.indexOf('endstream', start))).toString('latin1'));
    } catch {
      // not a Flate stream (the font file is one too; pictures are none here)
    }
  }
  const unicode = new Map<number, string>();
  for (const cmap of streams.filter((d) => d.includes('begincmap')))
    for (const [, from, list] of cmap.matchAll(/<([0-9a-f]{4})>\s*<[0-9a-f]{4}>\s*\[([^\]]*)\]/gi))
      [...list.matchAll(/<([0-9a-f]+)>/gi)].forEach(([, hex], i) => {
        const units = hex.match(/.{4}/g)!.map((u) => parseInt(u, 16));
        unicode.set(parseInt(from, 16) + i, String.fromCharCode(...units));
      });
  return streams.flatMap((d) =>
    [...d.matchAll(/\[([^\]]*)\]\s*TJ/g)].map(([, shown]) =>
      [...shown.matchAll(/<([0-9a-f]+)>/gi)]
        .flatMap(([, hex]) => hex.match(/.{4}/g)!.map((g) => unicode.get(parseInt(g, 16)) ?? '\ufffd'))
        .join(''),
    ),
  );
}

describe.each(testEngines())('buildings on %s', (engine) => {
  let api: TestApi;
  let admin: Session;
  let resident: ResidentSession;
  let other: { admin: Session; staff: Session };
  let seq = 0;

  /** A new block of `floors` × `perFloor` units; answers the block and its units. */
  const newBlock = async (floors = 2, perFloor = 3, extra: object = {}) => {
    seq++;
    const res = await admin.post('/base/block/save', {
      name: `Tower ${seq}`,
      number: `T${seq}`,
      floorCount: floors,
      unitsPerFloor: perFloor,
      invitePerson: 4,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const units = await admin.post('/base/unit/page', { page: 1, limit: 100, blockId: res.body.data.blockId });
    return { block: res.body.data, units: units.body.data.list as { unitId: number; name: string; floorId: number }[] };
  };
  const newSpace = async () => {
    seq++;
    const park = await admin.post('/base/carpark/park/save', { name: `Park ${seq}` });
    const space = await admin.post('/base/carpark/save', {
      carParkId: park.body.data.carParkId,
      carparkCode: `S-${seq}`,
      type: 2,
      plate: `AB ${seq}`,
    });
    expect(space.status, JSON.stringify(space.body)).toBe(200);
    return { carParkId: park.body.data.carParkId as number, carSpaceId: space.body.data.carSpaceId as number };
  };
  const newShop = async () => {
    seq++;
    const shop = await admin.post('/base/shop/save', { shopCode: `SH-${seq}`, name: `Bakery ${seq}` });
    expect(shop.status, JSON.stringify(shop.body)).toBe(200);
    return shop.body.data.shopId as number;
  };

  beforeAll(async () => {
    api = await startTestApi(engine);
    [admin, resident, other] = await Promise.all([signIn(api, 'admin'), signInResident(api), otherTenant(api)]);
  });
  afterAll(async () => api?.close());

  it('when staff create a block, then its floors and units are written with the numbering rule and listed with filters', async () => {
    const { block, units } = await newBlock(12, 3, { prefix: 'T', suffix: '' });
    expect(block).toMatchObject({ floorCount: 12, unitsPerFloor: 3, prefix: 'T', unitCount: 36 });
    expect(block.floors).toHaveLength(12);
    expect(block.floors[11]).toMatchObject({ name: '12', number: 12 });
    const all = await admin.post('/base/unit/page', { page: 1, limit: 50, blockId: block.blockId });
    expect(all.body.data.total).toBe(36);
    const floor12 = await admin.post('/base/unit/page', { blockId: block.blockId, floorId: block.floors[11].floorId });
    expect(floor12.body.data.list.map((u: { name: string }) => u.name)).toEqual(['T12A', 'T12B', 'T12C']);
    expect(floor12.body.data.list[2]).toMatchObject({
      houseStatus: 1,
      invitePerson: 4,
      buildName: block.name,
      floorName: '12',
    });
    const keyword = await admin.post('/base/unit/page', { blockId: block.blockId, keyword: 't12c' });
    expect(keyword.body.data.list.map((u: { name: string }) => u.name)).toEqual(['T12C']);
    const paged = await admin.post('/base/unit/page', { blockId: block.blockId, page: 4, limit: 10 });
    expect(paged.body.data).toMatchObject({ total: 36, page: 4, totalPage: 4 });
    expect(paged.body.data.list).toHaveLength(6);
    expect(units.length).toBe(36);

    const unitId = floor12.body.data.list[2].unitId;
    const modified = await admin.post(`/base/unit/modify/${unitId}/3/2/2/6`);
    expect(modified.body.data).toMatchObject({ room: 3, livingRoom: 2, restroom: 2, invitePerson: 6 });
    const renamed = await admin.post('/base/unit/update', { unitId, name: 'T12C-1' });
    expect(renamed.body.data.name).toBe('T12C-1');
    const clash = await admin.post('/base/unit/update', { unitId, name: 'T12B' });
    expect(clash.status).toBe(409);
    const info = await admin.get(`/base/unit/info/${unitId}`);
    expect(info.body.data).toMatchObject({ unitId, name: 'T12C-1', room: 3, owner: null });
    expect(info.body.data.inviteCode).toMatch(/^[0-9A-Z]{26}$/);

    const edited = await admin.post('/base/block/update', {
      blockId: block.blockId,
      name: 'North',
      number: 'N1',
      houseType: 2,
    });
    expect(edited.body.data).toMatchObject({ name: 'North', number: 'N1', houseType: 2 });
    const floor = await admin.post('/base/floor/update', { floorId: block.floors[0].floorId, name: 'G' });
    expect(floor.body.data).toMatchObject({ name: 'G', number: 1 });
    expect((await admin.post(`/base/floor/delete/${block.floors[0].floorId}`)).status).toBe(200);
    expect((await admin.post('/base/unit/page', { blockId: block.blockId })).body.data.total).toBe(33);
    expect((await admin.post(`/base/unit/delete/${unitId}`)).status).toBe(200);
    expect((await admin.post('/base/unit/page', { blockId: block.blockId })).body.data.total).toBe(32);
    expect((await admin.post(`/base/block/delete/${block.blockId}`)).status).toBe(200);
    expect((await admin.post('/base/unit/page', { blockId: block.blockId })).body.data.total).toBe(0);
  });

  it("when a resident joins with a unit's code, then its status changes, a delete is refused, and a regenerated code replaces the old one", async () => {
    const { block, units } = await newBlock(1, 2);
    const unit = (await admin.get(`/base/unit/info/${units[0].unitId}`)).body.data;
    const joined = await resident.post('/app/personhouse/join', { inviteCode: unit.inviteCode, identity: 2 });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const noOwner = await admin.post('/base/unit/page', { blockId: block.blockId, houseStatus: 2 });
    expect(noOwner.body.data.list.map((u: { unitId: number }) => u.unitId)).toEqual([unit.unitId]);
    // The totals by status follow the join (unit_total counters, kept by triggers on unit).
    expect(noOwner.body.data.total).toBe(1);
    expect((await admin.post('/base/unit/page', { blockId: block.blockId, houseStatus: 1 })).body.data.total).toBe(1);

    for (const path of [
      `/base/unit/delete/${unit.unitId}`,
      `/base/floor/delete/${unit.floorId}`,
      `/base/block/delete/${block.blockId}`,
    ]) {
      const refused = await admin.post(path).set('lang', 'zh-CN');
      expect(refused.status, path).toBe(409);
      expect(refused.body.msg, path).toMatch(/[\u4e00-\u9fff]/);
    }
    expect((await admin.post('/base/unit/page', { blockId: block.blockId })).body.data.total).toBe(2);

    const second = (await admin.get(`/base/unit/info/${units[1].unitId}`)).body.data;
    const fresh = await admin.post(`/base/unit/regenerate/${second.unitId}`);
    expect(fresh.body.data).toMatch(/^[0-9A-Z]{26}$/);
    expect(fresh.body.data).not.toBe(second.inviteCode);
    const stale = await resident.post('/app/personhouse/join', { inviteCode: second.inviteCode, identity: 2 });
    expect(stale.status).toBe(400);
    const png = await binary(admin.get(`/base/unit/download/qrcode/${second.unitId}`));
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toMatch(/image\/png/);
    expect(await decodeQr(png.body as Buffer)).toBe(fresh.body.data);
  });

  it("when staff revoke a house's code, then it stops working at once, the house has no code and its downloads are refused until a new one is made", async () => {
    const { units } = await newBlock(1, 2);
    const [first, second] = units.map((u) => u.unitId);
    const code = (await admin.get(`/base/unit/info/${first}`)).body.data.inviteCode as string;
    const revoked = await admin.post(`/base/unit/revoke/${first}`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect((await admin.get(`/base/unit/info/${first}`)).body.data.inviteCode).toBeNull();

    // The resident's join with the revoked code is told so, in the asked language.
    const en = await resident.post('/app/personhouse/join', { inviteCode: code, identity: 2 }).set('lang', 'en');
    expect(en.status).toBe(400);
    expect(en.body.msg).toMatch(/revoked/);
    const zh = await resident.post('/app/personhouse/join', { inviteCode: code, identity: 2 }).set('lang', 'zh-TW');
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toMatch(/撤銷/);
    // A code that never existed still reads as invalid, not as revoked.
    const made = await resident.post('/app/personhouse/join', {
      inviteCode: 'NEVER0000000000000000000000',
      identity: 2,
    });
    expect(made.status).toBe(400);
    expect(made.body.msg).not.toMatch(/revoked/);

    // No code to print: the single and batch downloads answer 409 with a translated reason.
    for (const res of [
      await admin.get(`/base/unit/download/qrcode/${first}`).set('lang', 'zh-CN'),
      await admin.post('/base/unit/download/qrcodes', { ids: [first, second] }).set('lang', 'zh-CN'),
      await admin.post('/base/unit/download/invitecodes', { ids: [first, second] }).set('lang', 'zh-CN'),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.msg).toMatch(/邀请码/);
    }
    // The other houses keep theirs.
    expect((await binary(admin.post('/base/unit/download/qrcodes', { ids: [second] }))).status).toBe(200);

    // Revoking again changes nothing; a new code works and the revoked one stays refused.
    expect((await admin.post(`/base/unit/revoke/${first}`)).status).toBe(200);
    const fresh = await admin.post(`/base/unit/regenerate/${first}`);
    expect(fresh.body.data).toMatch(/^[0-9A-Z]{26}$/);
    expect((await admin.get(`/base/unit/info/${first}`)).body.data.inviteCode).toBe(fresh.body.data);
    const png = await binary(admin.get(`/base/unit/download/qrcode/${first}`));
    expect(await decodeQr(png.body as Buffer)).toBe(fresh.body.data);
    expect((await resident.post('/app/personhouse/join', { inviteCode: code, identity: 2 })).status).toBe(400);
    const joined = await resident.post('/app/personhouse/join', { inviteCode: fresh.body.data, identity: 2 });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);

    // Spaces and shops revoke the same way.
    const { carSpaceId } = await newSpace();
    const shopId = await newShop();
    expect((await admin.post(`/base/carpark/revoke/${carSpaceId}`)).status).toBe(200);
    expect((await admin.post(`/base/shop/revoke/${shopId}`)).status).toBe(200);
    expect((await admin.get(`/base/carpark/info/${carSpaceId}`)).body.data.inviteCode).toBeNull();
    expect((await admin.get(`/base/shop/info/${shopId}`)).body.data.inviteCode).toBeNull();
  });

  it('when staff download codes of selected houses, then the PDF has one cell per house and the Excel one row per house', async () => {
    const { units } = await newBlock(2, 7);
    const ids = units.slice(0, 13).map((u) => u.unitId);
    const pdf = await binary(admin.post('/base/unit/download/qrcodes', { ids }).set('lang', 'zh-TW'));
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toMatch(/application\/pdf/);
    const text = (pdf.body as Buffer).toString('latin1');
    expect(text.startsWith('%PDF')).toBe(true);
    expect(text.match(/\/Type \/Page\b/g)).toHaveLength(2); // 12 cells a page
    // One cell per unit, each with its bookmark (the outline lists the houses), plus the document's title.
    expect(text.match(/\/Title /g)).toHaveLength(13 + 1);
    expect(text).toMatch(/\/FontFile2/); // the shipped CJK label font, embedded (subset) for the zh-TW labels
    // The labels read back in zh-TW, each on one line of its cell: block, floor and unit of every house.
    const lines = pdfTextLines(pdf.body as Buffer);
    for (const u of units.slice(0, 13)) expect(lines).toContain(`單位: ${u.name}`);
    expect(lines.filter((l) => l.startsWith('座數: Tower '))).toHaveLength(13);
    expect(lines.filter((l) => l.startsWith('樓層: '))).toHaveLength(13);

    const xlsx = await binary(admin.post('/base/unit/download/invitecodes', { ids }).set('lang', 'zh-CN'));
    expect(xlsx.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Uint8Array.from(xlsx.body as Buffer).buffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(14);
    expect(String(sheet.getRow(1).getCell(4).value)).toMatch(/[\u4e00-\u9fff]/);
    const codes = new Set<string>();
    for (let r = 2; r <= 14; r++) codes.add(String(sheet.getRow(r).getCell(4).value));
    const expected = await Promise.all(
      ids.map(async (id) => (await admin.get(`/base/unit/info/${id}`)).body.data.inviteCode),
    );
    expect(codes).toEqual(new Set(expected));

    const none = await admin.post('/base/unit/download/qrcodes', { ids: [] }).set('lang', 'zh-CN');
    expect(none.status).toBe(400);

    const spaces = [await newSpace(), await newSpace()];
    const spacePdf = await binary(
      admin.post('/base/carpark/download/qrcodes', { ids: spaces.map((s) => s.carSpaceId) }),
    );
    expect((spacePdf.body as Buffer).toString('latin1').match(/\/Title /g)).toHaveLength(2 + 1);
    const shop = await newShop();
    const shopPng = await binary(admin.get(`/base/shop/download/qrcode/${shop}`));
    expect(await decodeQr(shopPng.body as Buffer)).toBe(
      (await admin.get(`/base/shop/info/${shop}`)).body.data.inviteCode,
    );
  });

  it('when staff manage car parks, spaces and shops, then they are listed with filters and codes stay unique', async () => {
    const { carParkId, carSpaceId } = await newSpace();
    const list = await admin.post('/base/carpark/pageAdvancedSearch', { carParkId, type: 2 });
    expect(list.body.data.list).toEqual([
      expect.objectContaining({ carSpaceId, type: 2, houseStatus: 1, ownerName: null, carParkId }),
    ]);
    const code = list.body.data.list[0].carparkCode;
    expect((await admin.post('/base/carpark/page', { keyword: code })).body.data.total).toBe(1);
    const dup = await admin.post('/base/carpark/save', { carParkId, carparkCode: code.toLowerCase(), type: 1 });
    expect(dup.status).toBe(409);
    const edited = await admin.post('/base/carpark/save', {
      carSpaceId,
      carParkId,
      carparkCode: code,
      type: 1,
      plate: 'ZZ 1',
    });
    expect(edited.body.data).toMatchObject({ type: 1, plate: 'ZZ 1' });
    expect((await admin.post(`/base/carpark/modify/${carSpaceId}/7`)).body.data.invitePerson).toBe(7);
    const parks = await admin.post('/base/carpark/park/list');
    expect(parks.body.data).toContainEqual({ carParkId, name: expect.any(String), spaceCount: 1 });

    const shopId = await newShop();
    const shop = (await admin.get(`/base/shop/info/${shopId}`)).body.data;
    expect((await admin.post('/base/shop/page', { keyword: shop.name })).body.data.list).toEqual([
      expect.objectContaining({ shopId, shopCode: shop.shopCode }),
    ]);
    expect((await admin.post(`/base/shop/modify/${shopId}/2`)).body.data.invitePerson).toBe(2);
    expect((await admin.post('/base/shop/save', { shopCode: shop.shopCode })).status).toBe(409);

    const joined = await resident.post('/app/personhouse/join', { inviteCode: shop.inviteCode, identity: 2 });
    expect(joined.status).toBe(200);
    expect((await admin.post(`/base/shop/delete/${shopId}`)).status).toBe(409);
    expect((await admin.post(`/base/carpark/delete/${carSpaceId}`)).status).toBe(200);
    expect((await admin.post(`/base/carpark/park/delete/${carParkId}`)).status).toBe(200);
    expect((await admin.post('/base/carpark/page', { carParkId })).body.data.total).toBe(0);
  });

  it('when a caller lacks the permission a call declares, then that call answers 403 (a resident 403, no token 401) and nothing changes', async () => {
    const { units } = await newBlock(1, 1);
    const id = units[0].unitId;
    const calls = await declaredCalls(api, staffCalls);
    const rows = await rowCounts(api, TABLES);
    const lacking = new Map<string, Session>();
    for (const call of calls) {
      const what = `${call.method.toUpperCase()} ${call.path} (${call.permission})`;
      expect(call.permission, what).toMatch(/^(unit|carpark|shop):(list|view)$/);
      if (!lacking.has(call.permission)) lacking.set(call.permission, await staffWithout(api, admin, call.permission));
      expect((await makeCall(lacking.get(call.permission)!, call, id)).status, `staff lacking it: ${what}`).toBe(403);
      expect((await makeCall(resident, call, id)).status, `resident: ${what}`).toBe(403);
      expect((await makeCall(callerOf(api, 'no-such-token'), call, id)).status, `no token: ${what}`).toBe(401);
    }
    const modify = await resident.post(`/base/unit/modify/${id}/1/1/1/1`);
    expect(modify.status).toBe(403);
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });

  it("when another estate's staff use this estate's ids, then every record call answers 404, lists leave them out, and no row changes", async () => {
    const { block, units } = await newBlock(1, 1);
    const { carParkId, carSpaceId } = await newSpace();
    const shopId = await newShop();
    const idFor = (path: string) =>
      path.startsWith('/base/block')
        ? block.blockId
        : path.startsWith('/base/floor')
          ? block.floors[0].floorId
          : path.startsWith('/base/unit')
            ? units[0].unitId
            : path.startsWith('/base/carpark/park')
              ? carParkId
              : path.startsWith('/base/carpark')
                ? carSpaceId
                : shopId;
    const rows = await rowCounts(api, TABLES);
    const before = (await admin.get(`/base/unit/info/${units[0].unitId}`)).body.data;
    for (const call of staffCalls) {
      const what = `${call.method.toUpperCase()} ${call.path}`;
      const res = await makeCall(other.staff, call, idFor(call.path));
      if (call.record) expect(res.status, what).toBe(404);
      else if (!call.path.endsWith('/save'))
        expect(JSON.stringify(res.body.data ?? ''), what).not.toContain(block.name);
    }
    expect((await other.staff.post(`/base/unit/modify/${units[0].unitId}/1/1/1/1`)).status).toBe(404);
    expect((await other.staff.post(`/base/carpark/modify/${carSpaceId}/1`)).status).toBe(404);
    expect((await other.staff.post(`/base/shop/modify/${shopId}/1`)).status).toBe(404);
    // The other estate's creations (block/save, park/save) are its own rows; ours are unchanged.
    const after = await rowCounts(api, TABLES);
    expect(after.unit).toBe(rows.unit + 1);
    expect(after.car_park).toBe(rows.car_park + 1);
    expect((await admin.get(`/base/unit/info/${units[0].unitId}`)).body.data).toEqual(before);
    expect((await admin.post('/base/carpark/page', { carParkId })).body.data.total).toBe(1);
  });

  it('when input is bad, then the call answers 400 with a message in the asked language and writes nothing', async () => {
    const { units, block } = await newBlock(1, 1);
    const { carParkId } = await newSpace();
    const rows = await rowCounts(api, TABLES);
    const bad: [string, object][] = [
      ['/base/block/save', { name: '', number: '1', floorCount: 1, unitsPerFloor: 1 }],
      ['/base/block/save', { name: 'A', number: '1', floorCount: 0, unitsPerFloor: 1 }],
      ['/base/block/save', { name: 'A', number: '1', floorCount: 2, unitsPerFloor: 0 }],
      ['/base/block/save', { name: 'A', number: '1', floorCount: 'two', unitsPerFloor: 1 }],
      ['/base/block/save', { name: 'A', number: '1', floorCount: 1, unitsPerFloor: 27 }],
      ['/base/block/update', { blockId: block.blockId, name: '', number: '1', houseType: 1 }],
      ['/base/floor/update', { floorId: 'x', name: 'A' }],
      [`/base/unit/modify/${units[0].unitId}/x/1/1/1`, {}],
      ['/base/unit/update', { unitId: units[0].unitId, name: '' }],
      ['/base/unit/page', { page: 'first' }],
      ['/base/unit/page', { houseStatus: 9 }],
      ['/base/unit/download/qrcodes', { ids: [] }],
      ['/base/unit/download/invitecodes', { ids: 'all' }],
      ['/base/carpark/save', { carParkId, carparkCode: '', type: 1 }],
      ['/base/carpark/save', { carParkId, carparkCode: 'A', type: 3 }],
      ['/base/carpark/park/save', { name: '' }],
      ['/base/shop/save', { shopCode: '' }],
      ['/base/shop/modify/1/abc', {}],
    ];
    for (const [path, body] of bad) {
      const res = await admin.post(path, body).set('lang', 'zh-CN');
      expect(res.status, path).toBe(400);
      expect(res.body.code, path).toBe(400);
      expect(res.body.msg, path).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(await rowCounts(api, TABLES)).toEqual(rows);
  });
});
