/** Permission codes of SPEC §6, plus the codes for screens SPEC leaves unnamed (marked). */
export const PERMISSIONS = [
  'complain:list',
  'complain:view',
  'complain:reply',
  'complain:update',
  'eventorder:list',
  'eventorder:view',
  'eventorder:reply',
  'eventorder:update',
  'unit:list',
  'unit:view',
  'carpark:list',
  'carpark:view',
  'shop:list',
  'shop:view',
  'bulletin:list',
  'disasterwarn:list',
  'disasterwarn:view',
  'disasterreport:list',
  'im:list',
  // Not named by SPEC: the management screens an administrator needs (decision, see README).
  'system:account',
  'system:role',
  'system:dept',
  'system:staff',
  // Not named by SPEC: the read-only wall screen (issue 22): its feed and the alarm and work-order topics.
  'wall:view',
  // Not named by SPEC: the estate's own settings (basic set-up) and its ads (issue 33).
  'estate:settings',
  'ad:list',
  // Not named by SPEC: the company's profile and hotlines (enterprise management, issue 30).
  'system:company',
  // Not named by SPEC: staff check-in (issue 32): read, change rules, review make-ups, punch for oneself.
  'checkin:view',
  'checkin:rules',
  'checkin:approve',
  'checkin:punch',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The role value of administrators; a role value containing it sees everything. */
export const ADMIN_ROLE = 'ADMIN';

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** SPEC §6: role values are compared by containment ("role value containing ADMIN"). */
export function isAdminRole(roleValue: string | null | undefined): boolean {
  return !!roleValue && roleValue.toUpperCase().includes(ADMIN_ROLE);
}

/** The permission of the read-only wall screen (issue 22). */
export const WALL_PERMISSION = 'wall:view';

/** The check-in duty board (issue 32): a wall screen may show it too (read-only). */
export const WALL_BOARD_PERMISSION = 'checkin:view';

/** The console path of the duty board, the one staff screen a wall screen may open. */
export const WALL_BOARD_PATH = '/check-in/personnel-monitoring';

/**
 * A wall screen's account: wall:view and nothing but what a wall screen may also show (the duty
 * board's checkin:view). They land on the wall screen and open no other staff screen than the board.
 */
export function isWallOnly(perms: readonly string[], roleValue: string | null | undefined): boolean {
  return (
    !isAdminRole(roleValue) &&
    perms.includes(WALL_PERMISSION) &&
    perms.every((p) => p === WALL_PERMISSION || p === WALL_BOARD_PERMISSION)
  );
}

/**
 * A short fingerprint of what a person may do: the role value and the permission codes (each
 * menu's codes split at commas, trimmed, sorted, without repeats). A console tab sends the one of
 * the profile it shows when it connects, and the gateway tells it to read its profile again when
 * the permissions it checks differ (issue 30: a change made while the tab was loading is not
 * missed). Not a security measure: every call is checked by the api.
 */
export function accessDigest(roleValue: string | null | undefined, perms: Iterable<string>): string {
  const codes = new Set<string>();
  for (const p of perms) for (const code of p.split(',')) if (code.trim()) codes.add(code.trim());
  const text = `${roleValue ?? ''}|${[...codes].sort().join(',')}`;
  // FNV-1a, 32 bits (the browser has no synchronous hash): collisions only cost a missed re-read
  // of a change that the `access` topic announces anyway.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${codes.size}-${hash.toString(16).padStart(8, '0')}`;
}
