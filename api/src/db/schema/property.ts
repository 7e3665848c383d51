import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
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
    /** The code a resident joins with; null once staff revoked it (until they make a new one). */
    inviteCode: text(),
    /** The last code revoked or replaced, so a join with it says so (issue 18). */
    revokedInviteCode: text(),
    qrCode: text(),
    authStatus: smallint().notNull().default(2),
    /** HouseStatus (shared/src/enums.ts), kept by api/src/modules/person/house-status.repository.ts. */
    houseStatus: smallint().notNull().default(1),
    createdAt: createdAt(),
  },
  // The unit list (issue 18: 100,000 units, p95 < 25 ms) walks these two in its order
  // (block, floor, id), unfiltered/by block and floor or by house status; company_id comes last
  // only so the tenant check needs no heap visit (index-only scans, deep pages included). The
  // keyword's trigram index on name (and those of spaces and shops) is in migration 0010 (drizzle
  // cannot express them), with the unit_total counters' triggers.
  (t) => [
    uniqueIndex().on(t.inviteCode),
    index()
      .on(t.revokedInviteCode)
      .where(sql`revoked_invite_code is not null`),
    index('unit_estate_block_floor_id_idx').on(t.housingEstateId, t.blockId, t.floorId, t.id, t.companyId),
    index().on(t.housingEstateId, t.authStatus),
    index('unit_estate_status_block_floor_id_idx').on(
      t.housingEstateId,
      t.houseStatus,
      t.blockId,
      t.floorId,
      t.id,
      t.companyId,
    ),
  ],
);

/**
 * Unit counts per estate, block and house status, kept by statement triggers on unit
 * (migration 0010) in the same transaction as the change, so the unit list's totals without
 * keyword or floor never count 100,000 rows. Rows whose counts reach 0 stay (harmless).
 */
export const unitTotal = pgTable(
  'unit_total',
  {
    companyId: integer().notNull(),
    housingEstateId: integer().notNull(),
    blockId: integer().notNull(),
    houseStatus: smallint().notNull(),
    n: integer().notNull(),
  },
  (t) => [primaryKey({ name: 'unit_total_pk', columns: [t.companyId, t.housingEstateId, t.blockId, t.houseStatus] })],
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
    /** The code a resident joins with; null once staff revoked it (until they make a new one). */
    inviteCode: text(),
    /** The last code revoked or replaced, so a join with it says so (issue 18). */
    revokedInviteCode: text(),
    qrCode: text(),
    authStatus: smallint().notNull().default(2),
    /** HouseStatus (shared/src/enums.ts), kept by api/src/modules/person/house-status.repository.ts. */
    houseStatus: smallint().notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex().on(t.inviteCode),
    index()
      .on(t.revokedInviteCode)
      .where(sql`revoked_invite_code is not null`),
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
    /** The code a resident joins with; null once staff revoked it (until they make a new one). */
    inviteCode: text(),
    /** The last code revoked or replaced, so a join with it says so (issue 18). */
    revokedInviteCode: text(),
    qrCode: text(),
    authStatus: smallint().notNull().default(2),
    /** HouseStatus (shared/src/enums.ts), kept by api/src/modules/person/house-status.repository.ts. */
    houseStatus: smallint().notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex().on(t.inviteCode),
    index()
      .on(t.revokedInviteCode)
      .where(sql`revoked_invite_code is not null`),
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
