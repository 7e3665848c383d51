/** A house as the flat rows of complaints and work orders carry it. */
export interface FlatHouse {
  buildName?: string | null;
  floorName?: string | null;
  unitName?: string | null;
  carParkCode?: string | null;
  shopCode?: string | null;
}

/** A house as messages and person assets nest it. */
export interface NestedHouse {
  unit?: { buildName?: string | null; floorName?: string | null; name?: string | null } | null;
  carpark?: { carparkCode?: string | null } | null;
  shop?: { shopCode?: string | null } | null;
}

/**
 * SPEC §3 "Unit display", the one way the console names a house: building / floor / unit, or
 * the car park code, or the shop code; '' when there is none.
 */
export function unitDisplay(house: FlatHouse | NestedHouse): string {
  const flat: FlatHouse =
    'unit' in house || 'carpark' in house || 'shop' in house
      ? {
          buildName: (house as NestedHouse).unit?.buildName,
          floorName: (house as NestedHouse).unit?.floorName,
          unitName: (house as NestedHouse).unit?.name,
          carParkCode: (house as NestedHouse).carpark?.carparkCode,
          shopCode: (house as NestedHouse).shop?.shopCode,
        }
      : (house as FlatHouse);
  if (flat.unitName) return [flat.buildName, flat.floorName, flat.unitName].filter(Boolean).join(' / ');
  return flat.carParkCode || flat.shopCode || '';
}
