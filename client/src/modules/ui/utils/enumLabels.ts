import type { TFunction } from 'i18next';
import { EventType, HouseType, Identity, WorkStatus, enumValues } from '@pm/shared';

type NumericEnum = Readonly<Record<string, number>>;

/**
 * Where the labels of each shared enumeration (shared/src/enums.ts) live in locales/: the key
 * is the prefix followed by the wire value. A new enumeration on screen gets one line here.
 */
const LABEL_PREFIXES = new Map<NumericEnum, string>([
  [WorkStatus, 'workOrders.status.s'],
  [EventType, 'workOrders.eventType.t'],
  [HouseType, 'workOrders.houseType.h'],
  [Identity, 'workOrders.identity.i'],
]);

/** The enumerations that have labels (for the locale test). */
export const LABELLED_ENUMS: readonly NumericEnum[] = [...LABEL_PREFIXES.keys()];

/** The translation key of one value of a shared enumeration. */
export function enumLabelKey(e: NumericEnum, value: number): string {
  const prefix = LABEL_PREFIXES.get(e);
  if (!prefix) throw new Error('this enumeration has no labels: add it to LABEL_PREFIXES');
  return prefix + value;
}

/** The label of a value, '' for none. */
export function enumLabel(t: TFunction, e: NumericEnum, value: number | null | undefined): string {
  return value === null || value === undefined ? '' : t(enumLabelKey(e, value));
}

/** Dropdown options of every value, in the enumeration's order. */
export function enumOptions(t: TFunction, e: NumericEnum): { key: number; value: number; text: string }[] {
  return enumValues(e).map((v) => ({ key: v, value: v, text: t(enumLabelKey(e, v)) }));
}
