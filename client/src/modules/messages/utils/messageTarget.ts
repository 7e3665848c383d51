import type { Permission } from '@pm/shared';

/** What "View" on a notification opens, and the permission it needs (SPEC §6). */
export interface MessageTarget {
  perm: Permission;
  path: string;
}

export function messageTarget(messageType: number): MessageTarget | null {
  switch (messageType) {
    case 7:
      return { perm: 'disasterwarn:view', path: '/disaster-warning/disaster-release' };
    case 11:
    case 49:
      return { perm: 'eventorder:view', path: '/event-work-order/index' };
    case 13:
    case 50:
      return { perm: 'complain:view', path: '/complaints-suggestions/index' };
    case 27:
    case 31:
      return { perm: 'unit:view', path: '/building-management/unit-management' };
    case 28:
    case 32:
      return { perm: 'carpark:view', path: '/building-management/park-space-management' };
    case 29:
    case 33:
      return { perm: 'shop:view', path: '/building-management/merchant-management' };
    default:
      return null;
  }
}
