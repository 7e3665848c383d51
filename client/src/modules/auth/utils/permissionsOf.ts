import { PERMISSIONS, isAdminRole } from '@pm/shared';

/**
 * A person's permission set: the non-empty `perms` of the role's menus; role ADMIN has every
 * permission (internal contract).
 */
export function permissionsOf(menus: { perms: string | null }[], roleValue: string): string[] {
  if (isAdminRole(roleValue)) return [...PERMISSIONS];
  const set = new Set<string>();
  for (const m of menus) {
    // A menu may list several codes separated by commas.
    for (const p of (m.perms ?? '').split(',')) if (p.trim()) set.add(p.trim());
  }
  return [...set];
}
