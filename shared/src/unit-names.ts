// The numbering rule of a block's units (issue 18), shared by the api (which writes the names)
// and the console (which previews them). No zod here: the console imports it.

/** Most floors and units per floor a block is created with in one step. */
export const MAX_FLOORS = 200;
export const MAX_UNITS_PER_FLOOR = 26;

/** The letter of the n-th unit of a floor (1 → A … 26 → Z). */
export const unitLetter = (n: number): string => String.fromCharCode(64 + n);

/**
 * The numbering rule of a block (SPEC §3 prefix, suffix): prefix + floor number + unit letter +
 * suffix, so floor 12, third unit → "12C" (prefix "T" → "T12C"). The api writes, and the create
 * dialog previews, exactly these names.
 */
export function unitNameOf(rule: { prefix?: string | null; suffix?: string | null }, floor: number, n: number): string {
  return `${rule.prefix ?? ''}${floor}${unitLetter(n)}${rule.suffix ?? ''}`;
}

/** Every unit name of a new block, floor by floor (floor 1 first). */
export function unitNamesOf(rule: {
  floorCount: number;
  unitsPerFloor: number;
  prefix?: string | null;
  suffix?: string | null;
}): { floor: number; names: string[] }[] {
  return Array.from({ length: rule.floorCount }, (_, f) => ({
    floor: f + 1,
    names: Array.from({ length: rule.unitsPerFloor }, (_, u) => unitNameOf(rule, f + 1, u + 1)),
  }));
}
