import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { isWallOnly } from '@pm/shared';
import { session } from '../../auth/states/session';

/**
 * A person whose role holds only the wall screen (issue 22) lands on /wall after signing in and
 * never sees a staff screen: every path of the console sends them there.
 */
export function WallOnlyGuard({ children }: { children: ReactNode }) {
  const { perms, roleValue, ready } = useSnapshot(session);
  if (ready && isWallOnly(perms, roleValue)) return <Navigate to="/wall" replace />;
  return <>{children}</>;
}
