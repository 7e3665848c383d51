import { useSnapshot } from 'valtio';
import { session } from '../states/session';

/** True when the signed-in person holds the permission code (SPEC §6). */
export function usePermission(perm: string): boolean {
  const snap = useSnapshot(session);
  return snap.perms.includes(perm);
}

export function hasPermission(perm: string): boolean {
  return session.perms.includes(perm);
}
