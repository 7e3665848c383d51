/** Legend names are cut to this many characters (SPEC §9). */
export const PIE_NAME_CHARS = 9;

/** A legend name as the pie shows it: at most 9 characters, an ellipsis when cut. */
export function pieName(name: string): string {
  const chars = [...name];
  return chars.length > PIE_NAME_CHARS ? `${chars.slice(0, PIE_NAME_CHARS).join('')}…` : name;
}

/**
 * Whole percentages of each value that sum to exactly 100 (largest remainder): [1, 1, 1] gives
 * [34, 33, 33], not [33, 33, 33]. All zero gives all zero.
 */
export function roundedPercentages(values: number[]): number[] {
  const total = values.reduce((a, b) => a + b, 0);
  if (total <= 0) return values.map(() => 0);
  const exact = values.map((v) => (v * 100) / total);
  const floors = exact.map(Math.floor);
  let left = 100 - floors.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, rest: e - floors[i] })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i] += 1;
    left -= 1;
  }
  return floors;
}
