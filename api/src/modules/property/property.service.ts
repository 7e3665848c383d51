import { sql } from 'drizzle-orm';
import type { BlockRow, ShopInfo, SpaceInfo, UnitInfo } from '@pm/shared';
import { AppError } from '../../http/app-error';
import type { AuthedContext } from '../../http/request-context';
import { CELLS, qrPng, writeInviteCodesXlsx, writeQrPdf } from './house-codes';
import {
  codeTaken,
  deleteBlockRows,
  deleteCarParkRows,
  deleteFloorRows,
  deleteHouse,
  estateName,
  findFloor,
  findShop,
  findSpace,
  findUnit,
  houseCodes,
  houseState,
  insertBlock,
  insertCarPark,
  insertShop,
  insertSpace,
  listBlocks,
  listCarParks,
  modifyUnit,
  regenerateCode,
  revokeCode,
  renameCarPark,
  renameFloor,
  renameUnit,
  setInvitePerson,
  spacesBound,
  unitNameTaken,
  unitsBound,
  updateBlock,
  updateShop,
  updateSpace,
  type HouseKindName,
  type NewBlock,
  type ShopFields,
  type SpaceFields,
} from './property.repository';

/** The staff's side of buildings: blocks with floors and units, car parks and spaces, shops, codes. */

export { listBlocks, listCarParks, listShops, listSpaces, listUnits } from './property.repository';

const BOUND = 'buildings.errors.bound';

function found<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw AppError.notFound();
  return value;
}

// ---------------------------------------------------------------- blocks and floors

/** Creates a block with all its floors and units in one transaction. */
export async function createBlock(ctx: AuthedContext, b: NewBlock): Promise<BlockRow> {
  const blockId = await ctx.db.transaction((tx) => insertBlock(tx, ctx.tenant, b));
  return found((await listBlocks(ctx.db, ctx.tenant, blockId))[0]);
}

export async function editBlock(
  ctx: AuthedContext,
  b: { blockId: number; name: string; number: string; houseType: number },
): Promise<BlockRow> {
  if (!(await updateBlock(ctx.db, ctx.tenant, b))) throw AppError.notFound();
  return found((await listBlocks(ctx.db, ctx.tenant, b.blockId))[0]);
}

export async function removeBlock(ctx: AuthedContext, blockId: number): Promise<null> {
  found((await listBlocks(ctx.db, ctx.tenant, blockId))[0]);
  await ctx.db.transaction(async (tx) => {
    if (await unitsBound(tx, sql`u.block_id = ${blockId}`)) throw AppError.conflict(BOUND);
    await deleteBlockRows(tx, blockId);
  });
  return null;
}

export async function editFloor(ctx: AuthedContext, floorId: number, name: string) {
  found(await findFloor(ctx.db, ctx.tenant, floorId));
  await renameFloor(ctx.db, ctx.tenant, floorId, name);
  return found(await findFloor(ctx.db, ctx.tenant, floorId));
}

export async function removeFloor(ctx: AuthedContext, floorId: number): Promise<null> {
  found(await findFloor(ctx.db, ctx.tenant, floorId));
  await ctx.db.transaction(async (tx) => {
    if (await unitsBound(tx, sql`u.floor_id = ${floorId}`)) throw AppError.conflict(BOUND);
    await deleteFloorRows(tx, floorId);
  });
  return null;
}

// ---------------------------------------------------------------- units

export async function getUnit(ctx: AuthedContext, id: number): Promise<UnitInfo> {
  return found(await findUnit(ctx.db, ctx.tenant, id));
}

export async function setUnitRooms(
  ctx: AuthedContext,
  id: number,
  v: { room: number; livingRoom: number; restroom: number; invitePerson: number },
): Promise<UnitInfo> {
  await getUnit(ctx, id);
  await modifyUnit(ctx.db, ctx.tenant, id, v);
  return getUnit(ctx, id);
}

export async function setUnitName(ctx: AuthedContext, id: number, name: string): Promise<UnitInfo> {
  const unit = await getUnit(ctx, id);
  if (await unitNameTaken(ctx.db, unit.floorId, name, id)) throw AppError.conflict('buildings.errors.unitNameTaken');
  await renameUnit(ctx.db, id, name);
  return getUnit(ctx, id);
}

// ---------------------------------------------------------------- car parks, spaces, shops

export async function saveCarPark(ctx: AuthedContext, name: string, carParkId?: number) {
  const id = carParkId ?? (await insertCarPark(ctx.db, ctx.tenant, name));
  if (carParkId && !(await renameCarPark(ctx.db, ctx.tenant, carParkId, name))) throw AppError.notFound();
  return found((await listCarParks(ctx.db, ctx.tenant, id))[0]);
}

export async function removeCarPark(ctx: AuthedContext, id: number): Promise<null> {
  found((await listCarParks(ctx.db, ctx.tenant, id))[0]);
  await ctx.db.transaction(async (tx) => {
    if (await spacesBound(tx, sql`s.car_park_id = ${id}`)) throw AppError.conflict(BOUND);
    await deleteCarParkRows(tx, id);
  });
  return null;
}

export async function getSpace(ctx: AuthedContext, id: number): Promise<SpaceInfo> {
  return found(await findSpace(ctx.db, ctx.tenant, id));
}

export async function saveSpace(ctx: AuthedContext, s: SpaceFields, carSpaceId?: number): Promise<SpaceInfo> {
  if (carSpaceId) await getSpace(ctx, carSpaceId);
  found((await listCarParks(ctx.db, ctx.tenant, s.carParkId))[0]);
  if (await codeTaken(ctx.db, ctx.tenant, 'space', s.carparkCode, carSpaceId ?? 0))
    throw AppError.conflict('buildings.errors.codeTaken');
  let id = carSpaceId;
  if (id) await updateSpace(ctx.db, id, s);
  else id = await insertSpace(ctx.db, ctx.tenant, s);
  return getSpace(ctx, id);
}

export async function getShop(ctx: AuthedContext, id: number): Promise<ShopInfo> {
  return found(await findShop(ctx.db, ctx.tenant, id));
}

export async function saveShop(ctx: AuthedContext, s: ShopFields, shopId?: number): Promise<ShopInfo> {
  if (shopId) await getShop(ctx, shopId);
  if (await codeTaken(ctx.db, ctx.tenant, 'shop', s.shopCode, shopId ?? 0))
    throw AppError.conflict('buildings.errors.codeTaken');
  let id = shopId;
  if (id) await updateShop(ctx.db, id, s);
  else id = await insertShop(ctx.db, ctx.tenant, s);
  return getShop(ctx, id);
}

// ---------------------------------------------------------------- every house kind

export async function setHouseInvitePerson(ctx: AuthedContext, kind: 'space' | 'shop', id: number, n: number) {
  if (!(await houseState(ctx.db, ctx.tenant, kind, id)).exists) throw AppError.notFound();
  await setInvitePerson(ctx.db, ctx.tenant, kind, id, n);
}

export async function removeHouse(ctx: AuthedContext, kind: HouseKindName, id: number): Promise<null> {
  await ctx.db.transaction(async (tx) => {
    const state = await houseState(tx, ctx.tenant, kind, id);
    if (!state.exists) throw AppError.notFound();
    if (state.bound) throw AppError.conflict(BOUND);
    await deleteHouse(tx, kind, id);
  });
  return null;
}

export async function newCode(ctx: AuthedContext, kind: HouseKindName, id: number): Promise<string> {
  return found(await regenerateCode(ctx.db, ctx.tenant, kind, id));
}

/** Revokes a house's invite code (and so its QR code); the house has none until a new one is made. */
export async function revokeHouseCode(ctx: AuthedContext, kind: HouseKindName, id: number): Promise<null> {
  if (!(await revokeCode(ctx.db, ctx.tenant, kind, id))) throw AppError.notFound();
  return null;
}

/** The label lines of a house in the caller's language ("Block: A", "Floor: 12", "Unit: 12C"). */
const LABELS = {
  unit: ['buildings.fields.block', 'buildings.fields.floor', 'buildings.fields.unit'],
  space: ['buildings.fields.carPark', 'buildings.fields.carparkCode'],
  shop: ['buildings.fields.shopCode', 'buildings.fields.shopName'],
} as const;
function labelLines(ctx: AuthedContext, kind: HouseKindName, parts: (string | null)[]): string[] {
  return parts.flatMap((p, i) => (p ? [`${ctx.t(LABELS[kind][i])}: ${p}`] : []));
}

const FILE_NAME = { unit: 'units', space: 'parking-spaces', shop: 'shops' } as const;

/**
 * The selected houses, all of the caller's estate (another estate's id answers 404), each with a
 * working code (a revoked one answers 409: printing a code that does not work helps nobody).
 */
async function selected(ctx: AuthedContext, kind: HouseKindName, ids: number[]) {
  const unique = [...new Set(ids)];
  const codes = await houseCodes(ctx.db, ctx.tenant, kind, unique);
  if (codes.length !== unique.length) throw AppError.notFound();
  const revoked = codes.filter((c) => c.inviteCode === null).length;
  if (revoked > 0)
    throw new AppError(409, unique.length === 1 ? 'buildings.errors.noCode' : 'buildings.errors.someWithoutCode', {
      count: revoked,
    });
  return codes.map((c) => ({ ...c, inviteCode: c.inviteCode as string }));
}

export async function sendQrPng(ctx: AuthedContext, kind: HouseKindName, id: number): Promise<void> {
  const [code] = await selected(ctx, kind, [id]);
  const png = await qrPng(code.inviteCode);
  ctx.res
    .status(200)
    .type('image/png')
    .attachment(`${FILE_NAME[kind]}-${id}-qrcode.png`)
    .set('Cache-Control', 'no-store')
    .send(png);
}

export async function sendQrPdf(ctx: AuthedContext, kind: HouseKindName, ids: number[]): Promise<void> {
  const codes = await selected(ctx, kind, ids);
  const title = await estateName(ctx.db, ctx.tenant);
  ctx.res
    .status(200)
    .type('application/pdf')
    .attachment(`${FILE_NAME[kind]}-qrcodes.pdf`)
    .set('Cache-Control', 'no-store')
    .set('X-Cells-Per-Page', String(CELLS.columns * CELLS.rows));
  await writeQrPdf(
    ctx.res,
    codes.map((code) => ({ inviteCode: code.inviteCode, lines: labelLines(ctx, kind, code.parts) })),
    title,
  );
}

export async function sendInviteCodes(ctx: AuthedContext, kind: HouseKindName, ids: number[]): Promise<void> {
  const codes = await selected(ctx, kind, ids);
  const headers = [...LABELS[kind].map((key) => ctx.t(key)), ctx.t('buildings.fields.inviteCode')];
  ctx.res
    .status(200)
    .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .attachment(`${FILE_NAME[kind]}-invite-codes.xlsx`)
    .set('Cache-Control', 'no-store');
  await writeInviteCodesXlsx(
    ctx.res,
    ctx.t('buildings.fields.inviteCode'),
    headers,
    codes.map((c) => [...c.parts.map((p) => p ?? ''), c.inviteCode]),
  );
}
