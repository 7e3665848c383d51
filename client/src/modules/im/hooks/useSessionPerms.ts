import { useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { session } from '../../auth/states/session';

/** The signed-in person's permission codes, as a set. */
export function useSessionPerms(): ReadonlySet<string> {
  const { perms } = useSnapshot(session);
  return useMemo(() => new Set(perms), [perms]);
}
