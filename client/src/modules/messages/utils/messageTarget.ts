import type { Permission } from '@pm/shared';

/** What "View" on a notification opens, and the permission it needs (SPEC §6). */
export interface MessageTarget {
  perm: Permission;
  path: string;
  /** The message is about one record of that screen (its `dataId`): the screen opens it. */
  opensRecord: boolean;
}

export function messageTarget(messageType: number): MessageTarget | null {
  switch (messageType) {
    case 7:
      return { perm: 'disasterwarn:view', path: '/disaster-warning/disaster-release', opensRecord: false };
    case 11:
    case 49:
      return { perm: 'eventorder:view', path: '/event-work-order/index', opensRecord: true };
    case 13:
    case 50:
      return { perm: 'complain:view', path: '/complaints-suggestions/index', opensRecord: true };
    case 27:
    case 31:
      return { perm: 'unit:view', path: '/building-management/unit-management', opensRecord: false };
    case 28:
    case 32:
      return { perm: 'carpark:view', path: '/building-management/park-space-management', opensRecord: false };
    case 29:
    case 33:
      return { perm: 'shop:view', path: '/building-management/merchant-management', opensRecord: false };
    default:
      return null;
  }
}

/** Where View goes: the screen, with the record open (`?open=` of the list kit) when it is about one. */
export function messageLink(target: MessageTarget, dataId: number | null | undefined): string {
  return target.opensRecord && dataId ? `${target.path}?open=${dataId}` : target.path;
}
