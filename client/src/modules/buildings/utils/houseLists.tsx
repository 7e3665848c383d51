import { ParkingSpaceType } from '@pm/shared';
import {
  fetchBlocks,
  fetchCarParks,
  fetchShop,
  fetchShops,
  fetchSpace,
  fetchSpaces,
  fetchUnits,
  type BlockRow,
  type CarParkRow,
  type ShopInfo,
  type SpaceInfo,
  type UnitInfo,
} from '../../api';
import { enumLabel, enumOptions } from '../../ui/utils/enumLabels';
import { BlockDialog } from '../components/BlockDialog';
import { BlocksDialog } from '../components/BlocksDialog';
import { CarParksDialog } from '../components/CarParksDialog';
import { HouseInfoDialog } from '../components/HouseInfoDialog';
import { defineHouseList, HouseListPage } from '../components/HouseListPage';
import { HouseStatusLabel } from '../components/HouseStatusLabel';
import { ShopDialog } from '../components/ShopDialog';
import { SpaceDialog } from '../components/SpaceDialog';
import { UnitInfoDialog } from '../components/UnitInfoDialog';

/**
 * The three lists of Building management (SPEC §2), one object each for the one screen
 * (`HouseListPage`). A new kind of house is a new object here and a line in `../index.ts`.
 */

const number = (v: string) => Number(v) || undefined;
const keyword = (q: string) => q || undefined;

/** Unit management (`/building-management/unit-management`, unit:list): `?q=12C&block=3&floor=40&state=2`. */
const unitQuery = (f: typeof UNIT_FILTERS) => ({
  keyword: keyword(f.q),
  blockId: number(f.block),
  floorId: number(f.floor),
  houseStatus: number(f.state),
});
const UNIT_FILTERS = { q: '', block: '', floor: '', state: '' };
export const UNIT_LIST = defineHouseList({
  kind: 'unit',
  editPermission: 'unit:view',
  filters: UNIT_FILTERS,
  query: unitQuery,
  fetchList: (page, limit, f, signal) => fetchUnits({ page, limit, ...unitQuery(f) }, signal),
  loadLookups: () => fetchBlocks(),
  emptyLookups: [] as BlockRow[],
  idOf: (r) => r.unitId,
  nameOf: (r) => `${r.buildName} ${r.name}`,
  columns: (t) => [
    { key: 'block', header: t('buildings.fields.block'), cell: (r) => r.buildName },
    { key: 'floor', header: t('buildings.fields.floor'), cell: (r) => r.floorName },
    { key: 'unit', header: t('buildings.fields.unit'), cell: (r) => r.name },
    {
      key: 'rooms',
      header: `${t('buildings.fields.room')}/${t('buildings.fields.livingRoom')}/${t('buildings.fields.restroom')}`,
      cell: (r) => `${r.room}/${r.livingRoom}/${r.restroom}`,
    },
    { key: 'status', header: t('buildings.fields.status'), cell: (r) => <HouseStatusLabel status={r.houseStatus} /> },
    { key: 'owner', header: t('buildings.fields.owner'), cell: (r) => r.ownerName ?? '–' },
    { key: 'invite', header: t('buildings.fields.invitePerson'), cell: (r) => r.invitePerson },
  ],
  selectFilters: (t, blocks, draft) => [
    {
      key: 'block',
      label: t('buildings.fields.block'),
      options: blocks.map((b) => ({ value: b.blockId, text: b.name })),
      testId: 'block-filter',
      resets: ['floor'],
    },
    {
      key: 'floor',
      label: t('buildings.fields.floor'),
      options: (blocks.find((b) => String(b.blockId) === draft.block)?.floors ?? []).map((f) => ({
        value: f.floorId,
        text: f.name,
      })),
      testId: 'floor-filter',
    },
  ],
  testIds: { screen: 'units-screen', table: 'units-table', row: (r) => `unit-row-${r.name}`, keyword: 'units-keyword' },
  emptyText: 'buildings.empty.units',
  add: { label: 'buildings.actions.addBlock', testId: 'add-block' },
  manage: { label: 'buildings.actions.manageBlocks', icon: 'building', testId: 'manage-blocks' },
  // A unit is added with its block (floors × units per floor); its own edits are in its info dialog.
  Editor: ({ onClose, onSaved }: { record: UnitInfo | null; onClose: () => void; onSaved: () => void }) => (
    <BlockDialog block={null} open onClose={onClose} onSaved={onSaved} />
  ),
  Manager: ({ open, lookups, onClose, onChanged }) => (
    <BlocksDialog open={open} blocks={lookups} onClose={onClose} onChanged={onChanged} />
  ),
  InfoDialog: ({ id, canEdit, onClose, onChanged }) => (
    <UnitInfoDialog id={id} canEdit={canEdit} onClose={onClose} onChanged={onChanged} />
  ),
});

/** Park space management (`/building-management/park-space-management`, carpark:list): `?q=B2-01&park=1&type=2&state=1`. */
const SPACE_FILTERS = { q: '', park: '', type: '', state: '' };
const spaceQuery = (f: typeof SPACE_FILTERS) => ({
  keyword: keyword(f.q),
  carParkId: number(f.park),
  type: number(f.type),
  houseStatus: number(f.state),
});
export const SPACE_LIST = defineHouseList({
  kind: 'carpark',
  editPermission: 'carpark:view',
  filters: SPACE_FILTERS,
  query: spaceQuery,
  // SPEC §7 names pageAdvancedSearch for the console's list.
  fetchList: (page, limit, f, signal) => fetchSpaces({ page, limit, ...spaceQuery(f) }, signal),
  loadLookups: () => fetchCarParks(),
  emptyLookups: [] as CarParkRow[],
  idOf: (r) => r.carSpaceId,
  nameOf: (r) => r.carparkCode,
  columns: (t) => [
    { key: 'park', header: t('buildings.fields.carPark'), cell: (r) => r.carParkName },
    { key: 'code', header: t('buildings.fields.carparkCode'), cell: (r) => r.carparkCode },
    { key: 'type', header: t('buildings.fields.type'), cell: (r) => enumLabel(t, ParkingSpaceType, r.type) },
    { key: 'plate', header: t('buildings.fields.plate'), cell: (r) => r.plate ?? '–' },
    { key: 'status', header: t('buildings.fields.status'), cell: (r) => <HouseStatusLabel status={r.houseStatus} /> },
    { key: 'owner', header: t('buildings.fields.owner'), cell: (r) => r.ownerName ?? '–' },
    { key: 'invite', header: t('buildings.fields.invitePerson'), cell: (r) => r.invitePerson },
  ],
  selectFilters: (t, carParks) => [
    {
      key: 'park',
      label: t('buildings.fields.carPark'),
      options: carParks.map((c) => ({ value: c.carParkId, text: c.name })),
      testId: 'park-filter',
    },
    {
      key: 'type',
      label: t('buildings.fields.type'),
      options: enumOptions(t, ParkingSpaceType),
      testId: 'type-filter',
    },
  ],
  testIds: {
    screen: 'spaces-screen',
    table: 'spaces-table',
    row: (r) => `space-row-${r.carparkCode}`,
    keyword: 'spaces-keyword',
  },
  emptyText: 'buildings.empty.spaces',
  add: { label: 'buildings.actions.addSpace', testId: 'add-space' },
  manage: { label: 'buildings.actions.manageCarParks', icon: 'car', testId: 'manage-carparks' },
  Editor: ({
    record,
    lookups,
    onClose,
    onSaved,
  }: {
    record: SpaceInfo | null;
    lookups: CarParkRow[];
    onClose: () => void;
    onSaved: () => void;
  }) => <SpaceDialog space={record} carParks={lookups} onClose={onClose} onSaved={onSaved} />,
  Manager: ({ open, lookups, onClose, onChanged }) => (
    <CarParksDialog open={open} carParks={lookups} onClose={onClose} onChanged={onChanged} />
  ),
  InfoDialog: (p) => (
    <HouseInfoDialog<SpaceInfo>
      {...p}
      kind="carpark"
      titleKey="buildings.titles.spaceInfo"
      load={fetchSpace}
      idOf={(s) => s.carSpaceId}
      nameOf={(s) => s.carparkCode}
      fields={(t, s) => [
        [t('buildings.fields.carPark'), s.carParkName],
        [t('buildings.fields.carparkCode'), s.carparkCode],
        [t('buildings.fields.type'), enumLabel(t, ParkingSpaceType, s.type)],
        [t('buildings.fields.plate'), s.plate],
        [t('buildings.fields.status'), <HouseStatusLabel key="s" status={s.houseStatus} />],
        [t('buildings.fields.owner'), s.owner?.name ?? null],
        [t('buildings.fields.invitePerson'), s.invitePerson],
      ]}
    />
  ),
});

/** Merchant management (`/building-management/merchant-management`, shop:list): `?q=bakery&state=2`. */
const SHOP_FILTERS = { q: '', state: '' };
const shopQuery = (f: typeof SHOP_FILTERS) => ({ keyword: keyword(f.q), houseStatus: number(f.state) });
export const SHOP_LIST = defineHouseList({
  kind: 'shop',
  editPermission: 'shop:view',
  filters: SHOP_FILTERS,
  query: shopQuery,
  fetchList: (page, limit, f, signal) => fetchShops({ page, limit, ...shopQuery(f) }, signal),
  loadLookups: () => Promise.resolve(null),
  emptyLookups: null,
  idOf: (r) => r.shopId,
  nameOf: (r) => r.shopCode,
  columns: (t) => [
    { key: 'code', header: t('buildings.fields.shopCode'), cell: (r) => r.shopCode },
    { key: 'name', header: t('buildings.fields.shopName'), cell: (r) => r.name ?? '–' },
    { key: 'person', header: t('buildings.fields.person'), cell: (r) => r.ownerName ?? '–' },
    { key: 'status', header: t('buildings.fields.status'), cell: (r) => <HouseStatusLabel status={r.houseStatus} /> },
    { key: 'invite', header: t('buildings.fields.invitePerson'), cell: (r) => r.invitePerson },
  ],
  selectFilters: () => [],
  testIds: {
    screen: 'shops-screen',
    table: 'shops-table',
    row: (r) => `shop-row-${r.shopCode}`,
    keyword: 'shops-keyword',
  },
  emptyText: 'buildings.empty.shops',
  add: { label: 'buildings.actions.addShop', testId: 'add-shop' },
  Editor: ({ record, onClose, onSaved }: { record: ShopInfo | null; onClose: () => void; onSaved: () => void }) => (
    <ShopDialog shop={record} onClose={onClose} onSaved={onSaved} />
  ),
  InfoDialog: (p) => (
    <HouseInfoDialog<ShopInfo>
      {...p}
      kind="shop"
      titleKey="buildings.titles.shopInfo"
      load={fetchShop}
      idOf={(s) => s.shopId}
      nameOf={(s) => s.shopCode}
      fields={(t, s) => [
        [t('buildings.fields.shopCode'), s.shopCode],
        [t('buildings.fields.shopName'), s.name],
        [t('buildings.fields.person'), s.owner?.name ?? null],
        [t('buildings.fields.status'), <HouseStatusLabel key="s" status={s.houseStatus} />],
        [t('buildings.fields.invitePerson'), s.invitePerson],
      ]}
    />
  ),
});

/** The screens, lazily loaded by `../index.ts`. */
export const UnitsScreen = () => <HouseListPage kind={UNIT_LIST} />;
export const SpacesScreen = () => <HouseListPage kind={SPACE_LIST} />;
export const ShopsScreen = () => <HouseListPage kind={SHOP_LIST} />;
