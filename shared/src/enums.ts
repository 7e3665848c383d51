/**
 * Enumerations of SPEC §3 and §4 with their numeric codes. The numbers are the wire values
 * the api stores and the console and mobile app send; never renumber them.
 */

/** Complaint / event work-order status (SPEC §4). 1 → 2 by "deal with", 2 → 3 by "complete". */
export const WorkStatus = { untreated: 1, processing: 2, completed: 3 } as const;
export type WorkStatus = (typeof WorkStatus)[keyof typeof WorkStatus];

/** Event work-order type. */
export const EventType = {
  equipmentFailure: 1,
  building: 2,
  environmentalSanitation: 3,
  publicOrder: 4,
  other: 5,
} as const;
export type EventType = (typeof EventType)[keyof typeof EventType];

/** House type, also the "personType" of a complaint: which kind of property a person is linked to. */
export const HouseType = { residential: 1, parking: 2, merchant: 3 } as const;
export type HouseType = (typeof HouseType)[keyof typeof HouseType];

/** A person's identity in a house. */
export const Identity = { owner: 1, tenant: 2, relativesFriends: 3 } as const;
export type Identity = (typeof Identity)[keyof typeof Identity];

/** Kinds of relatives and friends (SPEC §3 "Person types"). */
export const Relation = { parents: 1, child: 2, companion: 3, relative: 4, friend: 5 } as const;
export type Relation = (typeof Relation)[keyof typeof Relation];

export const Gender = { male: 1, female: 2 } as const;
export type Gender = (typeof Gender)[keyof typeof Gender];

/** How a resident signed up; "phone" shows the telephone number. */
export const AccountType = { wechat: 1, facebook: 2, apple: 3, phone: 4 } as const;
export type AccountType = (typeof AccountType)[keyof typeof AccountType];

/** Company type: management committee or property company (management office). */
export const CompanyType = { committee: 1, property: 2 } as const;
export type CompanyType = (typeof CompanyType)[keyof typeof CompanyType];

/** Review state of a person's request to join a house (person_house.status): only approved links count. */
export const JoinStatus = { pending: 1, approved: 2, refused: 3 } as const;
export type JoinStatus = (typeof JoinStatus)[keyof typeof JoinStatus];

/**
 * The status of a house (unit, parking space or shop) that lists show and filter by (SPEC §4
 * "Unit statuses"). One definition, stored in each house's `house_status` column and kept by
 * the api in the same transaction as every change of the house's people
 * (api/src/modules/person/house-status.repository.ts). The first rule that holds wins:
 * 1. bound: an approved owner whose link is bound to their app account (person_house.auth_status 1,
 *    the normal case for an owner who joined with the invite code);
 * 2. verified: an approved owner without a bound app account (e.g. certified by the office);
 * 3. notCertified: an owner's request to join waits for review;
 * 4. unbound: the house had an owner who has left or was removed, and has none now;
 * 5. noOwner: the house has tenants or members (approved or pending) but never had an owner;
 * 6. unregistered: nobody has ever been linked to the house.
 */
export const HouseStatus = { unregistered: 1, noOwner: 2, notCertified: 3, verified: 4, bound: 5, unbound: 6 } as const;
export type HouseStatus = (typeof HouseStatus)[keyof typeof HouseStatus];

/** Owner binding state of a unit. */
export const AuthStatus = { bound: 1, unbound: 2 } as const;
export type AuthStatus = (typeof AuthStatus)[keyof typeof AuthStatus];

/** Who changed a person↔house link (history record). 2 is not used by SPEC. */
export const OperationType = { managementOffice: 1, owner: 3, relativesFriends: 4, tenant: 5 } as const;
export type OperationType = (typeof OperationType)[keyof typeof OperationType];

export const DisasterType = { fire: 1, earthquake: 2, invade: 3, hurricane: 4, other: 5 } as const;
export type DisasterType = (typeof DisasterType)[keyof typeof DisasterType];

/** A resident's answer to a disaster warning (SPEC §4). */
export const DisasterReply = {
  safe: 1,
  inDangerZone: 2,
  notInDangerZone: 3,
  waitInPlace: 4,
  askForHelp: 5,
  other: 6,
} as const;
export type DisasterReply = (typeof DisasterReply)[keyof typeof DisasterReply];

/** Announcement type. */
export const AnnouncementType = { info: 1, meeting: 2, vote: 3 } as const;
export type AnnouncementType = (typeof AnnouncementType)[keyof typeof AnnouncementType];

/** Read results shown in announcement read lists (SPEC §4). */
export const ReadResult = {
  unread: 0,
  read: 1,
  readNotVoted: 2,
  readAndVoted: 3,
  participate: 4,
  notParticipate: 5,
  authorizedParticipation: 6,
  readNotSelected: 7,
} as const;
export type ReadResult = (typeof ReadResult)[keyof typeof ReadResult];

/** Vote selection mode. */
export const SelectionMode = { single: 1, multiple: 2 } as const;
export type SelectionMode = (typeof SelectionMode)[keyof typeof SelectionMode];

/** Chat message content type (SPEC §3; 1 text is the reading SPEC calls "presumably"). */
export const ChatMessageType = { text: 1, picture: 2, voice: 4, file: 5 } as const;
export type ChatMessageType = (typeof ChatMessageType)[keyof typeof ChatMessageType];

/** Chat group kind: a private (two-person) chat or a group chat. */
export const ChatGroupType = { private: 1, group: 2 } as const;
export type ChatGroupType = (typeof ChatGroupType)[keyof typeof ChatGroupType];

/** Parking space type. */
export const ParkingSpaceType = { privateCar: 1, electricCar: 2 } as const;
export type ParkingSpaceType = (typeof ParkingSpaceType)[keyof typeof ParkingSpaceType];

/** Console languages, and the spelling the api's language update uses in its path. */
export const LANGUAGES = ['en', 'zh-CN', 'zh-TW'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_PATH_CODE: Record<Language, string> = { en: 'EN', 'zh-CN': 'ZH_CN', 'zh-TW': 'ZH_TW' };

/** Parses a language from a header, cookie or path code; unknown values give undefined. */
export function parseLanguage(value: string | null | undefined): Language | undefined {
  if (!value) return undefined;
  const v = value.trim().replace('_', '-').toLowerCase();
  if (v === 'zh-tw' || v === 'zh-hk' || v === 'zh-hant' || v.startsWith('zh-hant')) return 'zh-TW';
  if (v === 'zh-cn' || v === 'zh' || v === 'zh-sg' || v === 'zh-hans' || v.startsWith('zh-hans')) return 'zh-CN';
  if (v === 'en' || v.startsWith('en-')) return 'en';
  return undefined;
}

/** Values of an enumeration object, for zod schemas and select options. */
export function enumValues<T extends Record<string, number>>(e: T): T[keyof T][] {
  return Object.values(e) as T[keyof T][];
}
