import { listPage } from '@pm/shared';
import { route, type ApiModule } from '../../http/define-route';
import {
  createBlock,
  editBlock,
  editFloor,
  getShop,
  getSpace,
  getUnit,
  listBlocks,
  listCarParks,
  listShops,
  listSpaces,
  listUnits,
  newCode,
  removeBlock,
  removeCarPark,
  removeFloor,
  removeHouse,
  revokeHouseCode,
  saveCarPark,
  saveShop,
  saveSpace,
  sendInviteCodes,
  sendQrPdf,
  sendQrPng,
  setHouseInvitePerson,
  setUnitName,
  setUnitRooms,
} from './property.service';
import { exportShops, exportSpaces, exportUnits } from './property-export.service';
import { buildLogPage, importFile, sendTemplate } from './property-import.service';

/** SPEC §7 "Property": blocks, floors and units; car parks and spaces; shops; their codes. */
export const propertyModule: ApiModule = {
  name: 'property',
  routes: [
    route('POST /base/block/list', async (ctx) => listBlocks(ctx.db, ctx.tenant)),
    route('POST /base/block/save', async (ctx, { body }) => createBlock(ctx, body)),
    route('POST /base/block/update', async (ctx, { body }) => editBlock(ctx, body)),
    route('POST /base/block/delete/{id}', async (ctx, { params }) => removeBlock(ctx, params.id)),
    route('POST /base/floor/update', async (ctx, { body }) => editFloor(ctx, body.floorId, body.name)),
    route('POST /base/floor/delete/{id}', async (ctx, { params }) => removeFloor(ctx, params.id)),

    route('POST /base/unit/page', async (ctx, { body }) => {
      const { rows, total } = await listUnits(ctx.db, ctx.tenant, body, body.limit, (body.page - 1) * body.limit);
      return listPage(rows, total, body);
    }),
    route('POST /base/unit/modify/{unitId}/{room}/{livingRoom}/{restroom}/{invitePerson}', async (ctx, { params }) =>
      setUnitRooms(ctx, params.unitId, params),
    ),
    route('POST /base/unit/update', async (ctx, { body }) => setUnitName(ctx, body.unitId, body.name)),
    route('GET /base/unit/info/{id}', async (ctx, { params }) => getUnit(ctx, params.id)),
    route('GET /base/unit/download/qrcode/{id}', async (ctx, { params }) => sendQrPng(ctx, 'unit', params.id)),
    route('POST /base/unit/download/qrcodes', async (ctx, { body }) => sendQrPdf(ctx, 'unit', body.ids)),
    route('POST /base/unit/download/invitecodes', async (ctx, { body }) => sendInviteCodes(ctx, 'unit', body.ids)),
    route('POST /base/unit/regenerate/{id}', async (ctx, { params }) => newCode(ctx, 'unit', params.id)),
    route('POST /base/unit/revoke/{id}', async (ctx, { params }) => revokeHouseCode(ctx, 'unit', params.id)),
    route('POST /base/unit/delete/{id}', async (ctx, { params }) => removeHouse(ctx, 'unit', params.id)),
    route('GET /base/unit/import/template', async (ctx) => sendTemplate(ctx, 'unit')),
    route('POST /base/unit/import', async (ctx) => importFile(ctx, 'unit')),

    route('POST /base/carpark/park/list', async (ctx) => listCarParks(ctx.db, ctx.tenant)),
    route('POST /base/carpark/park/save', async (ctx, { body }) => saveCarPark(ctx, body.name, body.carParkId)),
    route('POST /base/carpark/park/delete/{id}', async (ctx, { params }) => removeCarPark(ctx, params.id)),
    route('POST /base/carpark/page', async (ctx, { body }) => {
      const { rows, total } = await listSpaces(ctx.db, ctx.tenant, body, body.limit, (body.page - 1) * body.limit);
      return listPage(rows, total, body);
    }),
    route('POST /base/carpark/pageAdvancedSearch', async (ctx, { body }) => {
      const { rows, total } = await listSpaces(ctx.db, ctx.tenant, body, body.limit, (body.page - 1) * body.limit);
      return listPage(rows, total, body);
    }),
    route('POST /base/carpark/save', async (ctx, { body }) => {
      const { carSpaceId, ...fields } = body;
      return saveSpace(ctx, fields, carSpaceId);
    }),
    route('POST /base/carpark/modify/{id}/{invitePerson}', async (ctx, { params }) => {
      await setHouseInvitePerson(ctx, 'space', params.id, params.invitePerson);
      return getSpace(ctx, params.id);
    }),
    route('GET /base/carpark/info/{id}', async (ctx, { params }) => getSpace(ctx, params.id)),
    route('GET /base/carpark/download/qrcode/{id}', async (ctx, { params }) => sendQrPng(ctx, 'space', params.id)),
    route('POST /base/carpark/download/qrcodes', async (ctx, { body }) => sendQrPdf(ctx, 'space', body.ids)),
    route('POST /base/carpark/download/invitecodes', async (ctx, { body }) => sendInviteCodes(ctx, 'space', body.ids)),
    route('POST /base/carpark/regenerate/{id}', async (ctx, { params }) => newCode(ctx, 'space', params.id)),
    route('POST /base/carpark/revoke/{id}', async (ctx, { params }) => revokeHouseCode(ctx, 'space', params.id)),
    route('POST /base/carpark/delete/{id}', async (ctx, { params }) => removeHouse(ctx, 'space', params.id)),
    route('GET /base/carpark/import/template', async (ctx) => sendTemplate(ctx, 'space')),
    route('POST /base/carpark/import', async (ctx) => importFile(ctx, 'space')),

    route('POST /base/shop/page', async (ctx, { body }) => {
      const { rows, total } = await listShops(ctx.db, ctx.tenant, body, body.limit, (body.page - 1) * body.limit);
      return listPage(rows, total, body);
    }),
    route('POST /base/shop/save', async (ctx, { body }) => {
      const { shopId, ...fields } = body;
      return saveShop(ctx, fields, shopId);
    }),
    route('POST /base/shop/modify/{id}/{invitePerson}', async (ctx, { params }) => {
      await setHouseInvitePerson(ctx, 'shop', params.id, params.invitePerson);
      return getShop(ctx, params.id);
    }),
    route('GET /base/shop/info/{id}', async (ctx, { params }) => getShop(ctx, params.id)),
    route('GET /base/shop/download/qrcode/{id}', async (ctx, { params }) => sendQrPng(ctx, 'shop', params.id)),
    route('POST /base/shop/download/qrcodes', async (ctx, { body }) => sendQrPdf(ctx, 'shop', body.ids)),
    route('POST /base/shop/download/invitecodes', async (ctx, { body }) => sendInviteCodes(ctx, 'shop', body.ids)),
    route('POST /base/shop/regenerate/{id}', async (ctx, { params }) => newCode(ctx, 'shop', params.id)),
    route('POST /base/shop/revoke/{id}', async (ctx, { params }) => revokeHouseCode(ctx, 'shop', params.id)),
    route('POST /base/shop/delete/{id}', async (ctx, { params }) => removeHouse(ctx, 'shop', params.id)),
    route('GET /base/shop/import/template', async (ctx) => sendTemplate(ctx, 'shop')),
    route('POST /base/shop/import', async (ctx) => importFile(ctx, 'shop')),
    route('POST /base/unit/export', async (ctx, { body }) => exportUnits(ctx, body)),
    route('POST /base/carpark/export', async (ctx, { body }) => exportSpaces(ctx, body)),
    route('POST /base/shop/export', async (ctx, { body }) => exportShops(ctx, body)),
    route('POST /build-log/v1', async (ctx, { body }) => {
      const { rows, total } = await buildLogPage(ctx, body.kind, body.limit, (body.page - 1) * body.limit);
      return listPage(rows, total, body);
    }),
  ],
};
