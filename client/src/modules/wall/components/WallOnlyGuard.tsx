import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { WALL_BOARD_PATH, WALL_BOARD_PERMISSION, isWallOnly } from '@pm/shared';
import { session } from '../../auth/states/session';

/**
 * A person whose role holds only the wall screen (issue 22) lands on /wall after signing in and
 * never sees a staff screen: every path of the console sends them there, but the check-in duty
 * board (/check-in/personnel-monitoring) when their role holds checkin:view (issue 32).
 */
export function WallOnlyGuard({ children }: { children: ReactNode }) {
  const { perms, roleValue, ready } = useSnapshot(session);
  const { pathname } = useLocation();
  // The check-in duty board is the one staff screen a wall screen may show (when its role has it).
  const board = pathname === WALL_BOARD_PATH && perms.includes(WALL_BOARD_PERMISSION);
  if (ready && isWallOnly(perms, roleValue) && !board) return <Navigate to="/wall" replace />;
  return <>{children}</>;
}
