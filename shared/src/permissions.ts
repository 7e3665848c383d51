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
