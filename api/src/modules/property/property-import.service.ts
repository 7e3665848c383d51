import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import multer from 'multer';
import { HouseType, MAX_IMPORT_ROWS, type ImportError } from '@pm/shared';
import { AppError } from '../../http/app-error';
import type { AuthedContext } from '../../http/request-context';
import { writeInviteCodesXlsx } from './house-codes';
import { dataRows } from './xlsx-rows';
import {
  carParkLookups,
  importKey as key,
  insertBuildLog,
  insertShops,
  insertSpaces,
  insertUnits,
  listBuildLog,
  shopCodes,
  unitLookups,
  type ShopImportRow,
  type SpaceImportRow,
  type UnitImportRow,
} from './property-import.repository';

/**
 * Excel import of units, spaces and shops (SPEC §2 import dropdown): the template in the
 * caller's language; the file streamed to a temporary file and read row by row (exceljs's
 * streaming reader), every row checked against the file and the estate, and all rows written in
 * one transaction — or none, with a report naming row, column and reason. Each import is logged.
 */

export type ImportKind = 'unit' | 'space' | 'shop';
const MAX_BYTES = 20 * 1024 * 1024;
/** Refusals listed in the answer; the count says how many there were in all. */
const MAX_REPORTED = 1000;

const COLUMNS: Record<ImportKind, string[]> = {
  unit: ['block', 'floor', 'unit', 'room', 'livingRoom', 'restroom', 'invitePerson'],
  space: ['carPark', 'carparkCode', 'type', 'plate', 'invitePerson'],
  shop: ['shopCode', 'shopName', 'invitePerson'],
};
const HOUSE_TYPE = { unit: HouseType.residential, space: HouseType.parking, shop: HouseType.merchant } as const;
const FILE_NAME = { unit: 'units', space: 'parking-spaces', shop: 'shops' } as const;

const headersOf = (ctx: AuthedContext, kind: ImportKind) =>
  COLUMNS[kind].map((c) => ctx.t(c === 'type' ? 'buildings.import.typeColumn' : `buildings.fields.${c}`));

export async function sendTemplate(ctx: AuthedContext, kind: ImportKind): Promise<void> {
  ctx.res
    .status(200)
    .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .attachment(`${FILE_NAME[kind]}-template.xlsx`)
    .set('Cache-Control', 'no-store');
  await writeInviteCodesXlsx(ctx.res, ctx.t(`buildings.import.sheet`), headersOf(ctx, kind), []);
}

/** Receives the multipart field "file" into a temporary directory (never whole in memory). */
export async function receiveFile(ctx: AuthedContext): Promise<{ path: string; name: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'pm-import-'));
  const parse = multer({
    storage: multer.diskStorage({ destination: dir }),
    limits: { fileSize: MAX_BYTES, files: 1, fields: 5, parts: 6 },
  }).single('file');
  try {
    await new Promise<void>((resolve, reject) =>
      parse(ctx.req, ctx.res, (err: unknown) => (err ? reject(err) : resolve())),
    );
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    if (err instanceof multer.MulterError && err.code === 'LIMIT_FILE_SIZE')
      throw new AppError(413, 'upload.errors.tooLarge', { limit: MAX_BYTES / 1024 / 1024 });
    throw AppError.badRequest('buildings.import.notExcel');
  }
  const file = ctx.req.file;
  if (!file) {
    await rm(dir, { recursive: true, force: true });
    throw AppError.badRequest('buildings.import.notExcel');
  }
  // An .xlsx file is a zip archive: check its first bytes, not its name or type header.
  const handle = await open(file.path, 'r');
  const head = Buffer.alloc(4);
  await handle.read(head, 0, 4, 0);
  await handle.close();
  if (head.toString('latin1') !== 'PK\u0003\u0004') {
    await rm(dir, { recursive: true, force: true });
    throw AppError.badRequest('buildings.import.notExcel');
  }
  return { path: file.path, name: Buffer.from(file.originalname, 'latin1').toString('utf8'), dir };
}

/** Checks one file's rows; `accept` turns a row into what is written, or reports its problems. */
export class RowChecker {
  readonly errors: ImportError[] = [];
  failedRows = 0;
  private rowFailed = false;
  constructor(
    private readonly ctx: AuthedContext,
    private readonly headers: string[],
  ) {}
  start() {
    this.rowFailed = false;
  }
  end() {
    if (this.rowFailed) this.failedRows++;
  }
  fail(row: number, column: number, reason: string, params: Record<string, string | number> = {}) {
    this.failWith(row, column, `buildings.import.${reason}`, params);
  }
  /** A refusal whose reason is any translation key (another area's import). */
  failWith(row: number, column: number, key: string, params: Record<string, string | number> = {}) {
    this.rowFailed = true;
    if (this.errors.length < MAX_REPORTED)
      this.errors.push({ row, column: this.headers[column], reason: this.ctx.t(key, params) });
  }
  required(row: number, cells: string[], column: number, max = 50): string | null {
    const v = cells[column] ?? '';
    if (!v) return (this.fail(row, column, 'required'), null);
    if (v.length > max) return (this.fail(row, column, 'tooLong', { max }), null);
    return v;
  }
  number(row: number, cells: string[], column: number, fallback: number, max: number): number | null {
    const v = cells[column] ?? '';
    if (!v) return fallback;
    if (!/^\d+$/.test(v)) return (this.fail(row, column, 'onlyNumbers'), null);
    if (Number(v) > max) return (this.fail(row, column, 'tooBig', { max }), null);
    return Number(v);
  }
}

export async function importFile(ctx: AuthedContext, kind: ImportKind): Promise<{ total: number; written: number }> {
  const file = await receiveFile(ctx);
  try {
    const check = new RowChecker(ctx, headersOf(ctx, kind));
    let total = 0;
    const units: UnitImportRow[] = [];
    const spaces: SpaceImportRow[] = [];
    const shops: ShopImportRow[] = [];
    const seen = new Set<string>();
    const lookups =
      kind === 'unit'
        ? { unit: await unitLookups(ctx.db, ctx.tenant) }
        : kind === 'space'
          ? { space: await carParkLookups(ctx.db, ctx.tenant) }
          : { shop: await shopCodes(ctx.db, ctx.tenant) };
    try {
      for await (const { row, cells } of dataRows(file.path)) {
        if (++total > MAX_IMPORT_ROWS)
          throw AppError.badRequest('buildings.import.tooManyRows', { max: MAX_IMPORT_ROWS });
        check.start();
        if (lookups.unit) {
          const { blockOf, floorOf, unitNames } = lookups.unit;
          const block = check.required(row, cells, 0);
          const floor = check.required(row, cells, 1);
          const name = check.required(row, cells, 2);
          const room = check.number(row, cells, 3, 0, 20);
          const livingRoom = check.number(row, cells, 4, 0, 20);
          const restroom = check.number(row, cells, 5, 0, 20);
          const invitePerson = check.number(row, cells, 6, 5, 99);
          const blockId = block ? blockOf.get(key(block)) : undefined;
          if (block && !blockId) check.fail(row, 0, 'noSuchBlock', { name: block });
          const floorId = blockId && floor ? floorOf.get(key(blockId, floor)) : undefined;
          if (blockId && floor && !floorId) check.fail(row, 1, 'noSuchFloor', { name: floor });
          if (floorId && name) {
            const k = key(floorId, name);
            if (unitNames.has(k)) check.fail(row, 2, 'inEstate', { name });
            else if (seen.has(k)) check.fail(row, 2, 'inFile', { name });
            seen.add(k);
          }
          if (
            blockId &&
            floorId &&
            name &&
            room !== null &&
            livingRoom !== null &&
            restroom !== null &&
            invitePerson !== null
          )
            units.push({ blockId, floorId, name, room, livingRoom, restroom, invitePerson });
        } else if (lookups.space) {
          const { parkOf, codes } = lookups.space;
          const park = check.required(row, cells, 0);
          const code = check.required(row, cells, 1);
          const typeText = check.required(row, cells, 2, 5);
          const plate = cells[3] ?? '';
          if (plate.length > 20) check.fail(row, 3, 'tooLong', { max: 20 });
          const invitePerson = check.number(row, cells, 4, 3, 99);
          const carParkId = park ? parkOf.get(key(park)) : undefined;
          if (park && !carParkId) check.fail(row, 0, 'noSuchCarPark', { name: park });
          let type: number | null = null;
          if (typeText) {
            if (!/^\d+$/.test(typeText)) check.fail(row, 2, 'onlyNumbers');
            else if (typeText !== '1' && typeText !== '2') check.fail(row, 2, 'badType');
            else type = Number(typeText);
          }
          if (code) {
            if (codes.has(key(code))) check.fail(row, 1, 'inEstate', { name: code });
            else if (seen.has(key(code))) check.fail(row, 1, 'inFile', { name: code });
            seen.add(key(code));
          }
          if (carParkId && code && type && invitePerson !== null && plate.length <= 20)
            spaces.push({ carParkId, code, type, plate: plate || null, invitePerson });
        } else if (lookups.shop) {
          const codes = lookups.shop;
          const code = check.required(row, cells, 0);
          const name = check.required(row, cells, 1, 100);
          const invitePerson = check.number(row, cells, 2, 3, 99);
          if (code) {
            if (codes.has(key(code))) check.fail(row, 0, 'inEstate', { name: code });
            else if (seen.has(key(code))) check.fail(row, 0, 'inFile', { name: code });
            seen.add(key(code));
          }
          if (code && name && invitePerson !== null) shops.push({ code, name, invitePerson });
        }
        check.end();
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      ctx.log.warn({ err }, 'import: unreadable file');
      throw AppError.badRequest('buildings.import.notExcel');
    }
    const log = { personId: ctx.caller.personId, kind: HOUSE_TYPE[kind], action: 'import', fileName: file.name, total };
    if (total === 0) throw AppError.badRequest('buildings.import.empty');
    if (check.failedRows > 0) {
      await insertBuildLog(ctx.db, ctx.tenant, { ...log, written: 0, failed: check.failedRows });
      throw new AppError(400, 'buildings.import.refused', { count: check.failedRows }, { total, errors: check.errors });
    }
    await ctx.db.transaction(async (tx) => {
      if (kind === 'unit') await insertUnits(tx, ctx.tenant, units);
      if (kind === 'space') await insertSpaces(tx, ctx.tenant, spaces);
      if (kind === 'shop') await insertShops(tx, ctx.tenant, shops);
      await insertBuildLog(tx, ctx.tenant, { ...log, written: total, failed: 0 });
    });
    return { total, written: total };
  } finally {
    await rm(file.dir, { recursive: true, force: true });
  }
}

export function buildLogPage(ctx: AuthedContext, kind: number | undefined, limit: number, offset: number) {
  return listBuildLog(ctx.db, ctx.tenant, kind, limit, offset);
}
