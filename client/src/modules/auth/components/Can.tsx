import type { ReactNode } from 'react';
import { usePermission } from '../hooks/usePermission';

/** The permission directive: renders its children only when the person holds `perm` (SPEC §6). */
export function Can({ perm, children }: { perm: string; children: ReactNode }) {
  return usePermission(perm) ? <>{children}</> : null;
}
