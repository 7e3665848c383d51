import { defineTopic } from './define-topic';

/** What the api pushes when a person joins or leaves a unit, car park space or shop. */
export type ResidentPayload = {
  name?: string | null;
  messageTime?: string;
  /** 1 residential, 2 parking, 3 merchant. */
  houseType?: number;
  houseId?: number;
  identity?: number;
  /** Of the join request: pending, approved, rejected. */
  status?: number;
};

const UNIT = { perm: 'unit:view', path: '/building-management/unit-management', opensRecord: false } as const;
const CAR_PARK = {
  perm: 'carpark:view',
  path: '/building-management/park-space-management',
  opensRecord: false,
} as const;
const SHOP = { perm: 'shop:view', path: '/building-management/merchant-management', opensRecord: false } as const;

/** Persons joining (event 12) or leaving (14) a residence, car park space or shop. */
export const residents = defineTopic<{ kind: 'join' | 'leave' }, ResidentPayload>()({
  name: 'residents',
  permissions: ['unit:list', 'carpark:list', 'shop:list'],
  channels: { join: 12, leave: 14 },
  messageTypes: {
    joinResidential: { type: 27, panel: 'messages', counted: true, view: UNIT },
    joinParking: { type: 28, panel: 'messages', counted: true, view: CAR_PARK },
    joinMerchant: { type: 29, panel: 'messages', counted: true, view: SHOP },
    exitResidential: { type: 31, panel: 'messages', counted: true, view: UNIT },
    exitParking: { type: 32, panel: 'messages', counted: true, view: CAR_PARK },
    exitMerchant: { type: 33, panel: 'messages', counted: true, view: SHOP },
  },
  classify: (m) => ({ kind: m.channelType === 12 ? 'join' : 'leave' }),
  // A refused request (status 3) is nobody joining: no toast, the lists still reload.
  toast: (e) =>
    e.payload.status === 3
      ? null
      : { level: 'info', key: e.kind === 'join' ? 'messages.toasts.join' : 'messages.toasts.leave' },
});

/** Join / exit message type for a house type (1 residential, 2 parking, 3 merchant). */
export function joinMessageType(houseType: 1 | 2 | 3): 27 | 28 | 29 {
  return (26 + houseType) as 27 | 28 | 29;
}
export function exitMessageType(houseType: 1 | 2 | 3): 31 | 32 | 33 {
  return (30 + houseType) as 31 | 32 | 33;
}
