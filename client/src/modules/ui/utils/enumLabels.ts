import type { TFunction } from 'i18next';
import {
  AccountType,
  DisasterReply,
  DisasterType,
  EventType,
  Gender,
  HouseStatus,
  HouseType,
  Identity,
  JoinStatus,
  OperationType,
  ParkingSpaceType,
  Relation,
  WorkStatus,
  enumValues,
} from '@pm/shared';
import { AnnouncementType, ReadResult, SelectionMode } from '@pm/shared';

type NumericEnum = Readonly<Record<string, number>>;

/**
 * Where the labels of each shared enumeration (shared/src/enums.ts) live in locales/: a key
 * prefix followed by the wire value, or one key per value. A new enumeration on screen gets
 * one line here.
 */
const LABELS = new Map<NumericEnum, string | Readonly<Record<number, string>>>([
  [WorkStatus, 'workOrders.status.s'],
  [EventType, 'workOrders.eventType.t'],
  [HouseType, 'workOrders.houseType.h'],
  [Identity, 'workOrders.identity.i'],
  [HouseStatus, 'houseStatus.s'],
  [ParkingSpaceType, 'buildings.spaceType.t'],
  [Gender, { [Gender.male]: 'profile.male', [Gender.female]: 'profile.female' }],
  [AccountType, 'owners.accountType.a'],
  [JoinStatus, 'owners.joinStatus.s'],
  [OperationType, 'owners.operationType.o'],
  [Relation, 'owners.relation.r'],
  [DisasterType, 'disaster.type.t'],
  [DisasterReply, 'disaster.reply.r'],
  [AnnouncementType, 'announcements.type.t'],
  [ReadResult, 'announcements.readResult.r'],
  [SelectionMode, 'announcements.selectionMode.m'],
]);

/** The enumerations that have labels (for the locale test). */
export const LABELLED_ENUMS: readonly NumericEnum[] = [...LABELS.keys()];

/** The translation key of one value of a shared enumeration. */
export function enumLabelKey(e: NumericEnum, value: number): string {
  const labels = LABELS.get(e);
  if (!labels) throw new Error('this enumeration has no labels: add it to LABELS');
  return typeof labels === 'string' ? labels + value : (labels[value] ?? `${value}`);
}

/** The label of a value, '' for none. */
export function enumLabel(t: TFunction, e: NumericEnum, value: number | null | undefined): string {
  return value === null || value === undefined ? '' : t(enumLabelKey(e, value));
}

/** Dropdown options of every value, in the enumeration's order. */
export function enumOptions(t: TFunction, e: NumericEnum): { key: number; value: number; text: string }[] {
  return enumValues(e).map((v) => ({ key: v, value: v, text: t(enumLabelKey(e, v)) }));
}
