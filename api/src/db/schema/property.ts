import { index, integer, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantColumns } from './columns';

/** A building block ("block name and number", floors, units per floor, prefix/suffix of unit names). */
export const block = pgTable(
  'block',
  {
    id: id(),
    ...tenantColumns(),
    name: text().notNull(),
    number: text(),
    floorCount: integer().notNull().default(1),
    unitsPerFloor: integer().notNull().default(1),
    prefix: text(),
    suffix: text(),
    houseType: smallint().notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.housingEstateId, t.id)],
);

export const floor = pgTable(
  'floor',
  {
    id: id(),
    ...tenantColumns(),
    blockId: integer().notNull(),
    name: text().notNull(),
    number: integer().notNull(),
  },
  (t) => [index().on(t.blockId, t.number)],
);

/** A residential unit; inviteCode/qrCode let residents join it from the app. authStatus: AuthStatus. */
export const unit = pgTable(
  'unit',
  {
    id: id(),
    ...tenantColumns(),
    blockId: integer().notNull(),
    floorId: integer().notNull(),
    name: text().notNull(),
    room: integer().notNull().default(0),
    livingRoom: integer().notNull().default(0),
    restroom: integer().notNull().default(0),
    invitePerson: integer().notNull().default(5),
    inviteCode: text().notNull(),
    qrCode: text(),
    authStatus: smallint().notNull().default(2),
    /** HouseStatus (shared/src/enums.ts), kept by api/src/modules/person/house-status.repository.ts. */
    houseStatus: smallint().notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex().on(t.inviteCode),
    index().on(t.housingEstateId, t.blockId, t.floorId, t.id),
    index().on(t.housingEstateId, t.authStatus),
    index().on(t.housingEstateId, t.houseStatus),
  ],
);

export const carPark = pgTable(
  'car_park',
  {
    id: id(),
    ...tenantColumns(),
    name: text().notNull(),
    seatCount: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.housingEstateId)],
);

/** A parking space. type: ParkingSpaceType; plate: licence plate. */
export const carSpace = pgTable(
  'car_space',
  {
    id: id(),
    ...tenantColumns(),
    carParkId: integer().notNull(),
    carparkCode: text().notNull(),
    type: smallint().notNull().default(1),
    plate: text(),
    invitePerson: integer().notNull().default(3),
    inviteCode: text().notNull(),
    qrCode: text(),
    authStatus: smallint().notNull().default(2),
    /** HouseStatus (shared/src/enums.ts), kept by api/src/modules/person/house-status.repository.ts. */
    houseStatus: smallint().notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex().on(t.inviteCode),
    index().on(t.housingEstateId, t.carparkCode),
    index().on(t.housingEstateId, t.type),
    index().on(t.housingEstateId, t.houseStatus),
  ],
);

/** A merchant (shop). */
export const shop = pgTable(
  'shop',
  {
    id: id(),
    ...tenantColumns(),
    shopCode: text().notNull(),
    name: text(),
    invitePerson: integer().notNull().default(3),
    inviteCode: text().notNull(),
    qrCode: text(),
    authStatus: smallint().notNull().default(2),
    /** HouseStatus (shared/src/enums.ts), kept by api/src/modules/person/house-status.repository.ts. */
    houseStatus: smallint().notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex().on(t.inviteCode),
    index().on(t.housingEstateId, t.shopCode),
    index().on(t.housingEstateId, t.houseStatus),
  ],
);

/**
 * What staff did to the estate's houses in bulk (SPEC §7 /build-log/v1): an Excel import of
 * units, spaces or shops, with who, when and the row counts. kind: HouseType; ok: all rows written.
 */
export const buildLog = pgTable(
  'build_log',
  {
    id: id(),
    ...tenantColumns(),
    personId: integer().notNull(),
    kind: smallint().notNull(),
    action: text().notNull(),
    fileName: text(),
    total: integer().notNull().default(0),
    written: integer().notNull().default(0),
    failed: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.housingEstateId, t.createdAt.desc())],
);
