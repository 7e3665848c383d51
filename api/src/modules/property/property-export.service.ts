import ExcelJS from 'exceljs';
import { ParkingSpaceType } from '@pm/shared';
import type { AuthedContext } from '../../http/request-context';
import { listShops, listSpaces, listUnits, type SpaceFilter, type UnitFilter } from './property.repository';

/**
 * Export of the current list (its filters) to Excel: the rows are read a chunk at a time and
 * written to the response as they come (exceljs's streaming writer), so memory stays bounded
 * however long the list. `X-Total-Rows` tells the console how many rows follow.
 */

const CHUNK = 2000;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const statusText = (ctx: AuthedContext, v: number) => ctx.t(`houseStatus.s${v}`);
const typeText = (ctx: AuthedContext, v: number) =>
  v === ParkingSpaceType.privateCar || v === ParkingSpaceType.electricCar
    ? ctx.t(`buildings.spaceType.t${v}`)
    : String(v);

/** Streams a list to the response as an Excel file, a chunk of rows at a time (also check-in's exports). */
export async function stream<Row>(
  ctx: AuthedContext,
  fileName: string,
  headers: string[],
  page: (limit: number, offset: number) => Promise<{ rows: Row[]; total: number }>,
  cells: (r: Row) => (string | number)[],
): Promise<void> {
  const first = await page(CHUNK, 0);
  ctx.res
    .status(200)
    .type(XLSX)
    .attachment(fileName)
    .set('Cache-Control', 'no-store')
    .set('X-Total-Rows', String(first.total))
    .set('Access-Control-Expose-Headers', 'X-Total-Rows');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: ctx.res, useStyles: true });
  const sheet = workbook.addWorksheet(fileName.replace(/\.xlsx$/, ''));
  sheet.columns = headers.map((header) => ({ header, width: Math.max(12, header.length + 4) }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let rows = first.rows;
  for (let offset = 0; rows.length > 0;) {
    for (const r of rows) sheet.addRow(cells(r)).commit();
    offset += rows.length;
    if (rows.length < CHUNK) break;
    rows = (await page(CHUNK, offset)).rows;
  }
  sheet.commit();
  await workbook.commit();
}

const f = (ctx: AuthedContext, key: string) => ctx.t(`buildings.fields.${key}`);

export function exportUnits(ctx: AuthedContext, filter: UnitFilter): Promise<void> {
  return stream(
    ctx,
    'units.xlsx',
    ['block', 'floor', 'unit', 'room', 'livingRoom', 'restroom', 'status', 'owner', 'invitePerson'].map((k) =>
      f(ctx, k),
    ),
    (limit, offset) => listUnits(ctx.db, ctx.tenant, filter, limit, offset),
    (r) => [
      r.buildName,
      r.floorName,
      r.name,
      r.room,
      r.livingRoom,
      r.restroom,
      statusText(ctx, r.houseStatus),
      r.ownerName ?? '',
      r.invitePerson,
    ],
  );
}

export function exportSpaces(ctx: AuthedContext, filter: SpaceFilter): Promise<void> {
  return stream(
    ctx,
    'parking-spaces.xlsx',
    ['carPark', 'carparkCode', 'type', 'plate', 'status', 'owner', 'invitePerson'].map((k) => f(ctx, k)),
    (limit, offset) => listSpaces(ctx.db, ctx.tenant, filter, limit, offset),
    (r) => [
      r.carParkName,
      r.carparkCode,
      typeText(ctx, r.type),
      r.plate ?? '',
      statusText(ctx, r.houseStatus),
      r.ownerName ?? '',
      r.invitePerson,
    ],
  );
}

export function exportShops(ctx: AuthedContext, filter: { houseStatus?: number; keyword?: string }): Promise<void> {
  return stream(
    ctx,
    'shops.xlsx',
    ['shopCode', 'shopName', 'person', 'status', 'invitePerson'].map((k) => f(ctx, k)),
    (limit, offset) => listShops(ctx.db, ctx.tenant, filter, limit, offset),
    (r) => [r.shopCode, r.name ?? '', r.ownerName ?? '', statusText(ctx, r.houseStatus), r.invitePerson],
  );
}
