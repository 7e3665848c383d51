import type { Tx } from '../db/open-database';
import * as s from '../db/schema';
import { ago, demoRandom } from './demo-random';
import { newInviteCode } from '../modules/person/invite-code';
import { refreshEstateHouseStatus } from '../modules/person/house-status.repository';
import { seedAnnouncementRecipients } from '../modules/announcement/announcement.repository';
import type { DailyCodes } from './daily-codes';
import { demoImagePath } from './demo-images';

export interface EstatePlan {
  companyName: string;
  companyType: number;
  estateName: string;
  address: string;
  /** IANA time zone of the estate. */
  timeZone: string;
  adminUsername: string;
  adminName: string;
  staffUsername?: string;
  staffName?: string;
  blocks: string[];
  floors: number;
  unitsPerFloor: number;
  carSpaces: number;
  shops: number;
  extraResidents: number;
  residentAccounts: number;
  complaints: number;
  eventOrders: number;
  codePrefix: string;
}

const FIRST = [
  'Chris',
  'Jamie',
  'Taylor',
  'Jordan',
  'Casey',
  'Riley',
  'Morgan',
  'Avery',
  'Quinn',
  'Drew',
  'Kai',
  'Rowan',
  'Skyler',
  'Emery',
  'Hayden',
];
const LAST = [
  'Chan',
  'Wong',
  'Lee',
  'Cheung',
  'Lau',
  'Ng',
  'Ho',
  'Leung',
  'Tang',
  'Yip',
  'Lam',
  'Kwok',
  'Tsang',
  'Fung',
];
const COMPLAINT_THEMES = [
  ['Noise at night', 'The neighbours upstairs are loud after 11 pm almost every night.'],
  ['Lift out of order', 'The lift has stopped between floors twice this week.'],
  ['Corridor lights', 'The corridor lights on my floor have been off for three days.'],
  ['Parking misuse', 'Someone keeps parking in my space without permission.'],
  ['Rubbish collection', 'Rubbish was not collected on Monday and it smells.'],
  ['Suggestion: bicycle racks', 'Please add bicycle racks near the entrance.'],
  ['Water pressure', 'The water pressure is very low in the mornings.'],
  ['Security gate', 'The security gate does not close properly.'],
] as const;
const ORDER_THEMES = [
  ['Broken door lock', 1],
  ['Crack in the lobby wall', 2],
  ['Stairwell needs cleaning', 3],
  ['Strangers loitering at night', 4],
  ['Request for extra key card', 5],
  ['Air conditioner leaking', 1],
  ['Roof water seepage', 2],
  ['Pest control in the garden', 3],
] as const;
const REPLIES = [
  'Thank you, we have received your report and will check today.',
  'Our technician will visit tomorrow morning.',
  'Could you tell us a convenient time for the visit?',
  'It happened again this evening.',
  'Thanks for the quick response!',
];

const img = demoImagePath;

export interface Hashes {
  admin: string;
  staff: string;
  resident: string;
}

/** Seeds one company with one estate and everything in it, in batches. */
export async function seedEstate(
  tx: Tx,
  plan: EstatePlan,
  hashes: Hashes,
  menus: { allMenuIds: number[]; staffMenuIds: number[] },
  codes: DailyCodes,
): Promise<void> {
  const rnd = demoRandom(plan.codePrefix.charCodeAt(0) * 1000 + plan.codePrefix.charCodeAt(1));
  const now = Date.now();
  const [co] = await tx
    .insert(s.company)
    .values({
      name: plan.companyName,
      companyType: plan.companyType,
      contactPerson: plan.adminName,
      contactTel: '+852 2345 6789',
      address: plan.address,
    })
    .returning();
  const [estate] = await tx
    .insert(s.housingEstate)
    .values({ companyId: co.id, name: plan.estateName, address: plan.address, timeZone: plan.timeZone })
    .returning();
  const t = { companyId: co.id, housingEstateId: estate.id };

  await tx.insert(s.hotline).values([
    { ...t, name: 'Management office', tel: '+852 2345 6789', sort: 1 },
    { ...t, name: 'Security desk (24 h)', tel: '+852 2345 6790', sort: 2 },
    { ...t, name: 'Repairs', tel: '+852 2345 6791', sort: 3 },
  ]);
  const depts = await tx
    .insert(s.department)
    .values(['Management Office', 'Security', 'Maintenance', 'Cleaning'].map((name, i) => ({ ...t, name, sort: i })))
    .returning({ id: s.department.id });

  // Roles: ADMIN (everything) and, in the main estate, the limited STAFF role.
  const [adminRole] = await tx
    .insert(s.sysRole)
    .values({ ...t, roleName: 'Administrator', roleValue: 'ADMIN', remark: 'Every permission' })
    .returning();
  await tx.insert(s.sysRoleMenu).values(menus.allMenuIds.map((menuId) => ({ roleId: adminRole.id, menuId })));
  let staffRoleId: number | null = null;
  if (plan.staffUsername) {
    const [staffRole] = await tx
      .insert(s.sysRole)
      .values({
        ...t,
        roleName: 'Front desk staff',
        roleValue: 'STAFF',
        remark: 'Complaints, work orders, property, bulletins',
      })
      .returning();
    staffRoleId = staffRole.id;
    await tx.insert(s.sysRoleMenu).values(menus.staffMenuIds.map((menuId) => ({ roleId: staffRole.id, menuId })));
  }

  // Staff persons: the admin, the staff account and four colleagues without accounts.
  const staffNames = [
    plan.adminName,
    ...(plan.staffName ? [plan.staffName] : []),
    'Pat Ho',
    'Lee Tsang',
    'Robin Lam',
    'Kim Fung',
  ];
  const staffPersons = await tx
    .insert(s.person)
    .values(
      staffNames.map((name, i) => ({
        ...t,
        name,
        gender: (i % 2) + 1,
        images: [{ url: img(`avatar-staff-${i % 4}`) }],
        tel: `+852 9000 ${String(1000 + i)}`,
        email: `${name.split(' ')[0].toLowerCase()}.${plan.codePrefix.toLowerCase()}@example.com`,
        accountType: 4,
      })),
    )
    .returning({ id: s.person.id });
  await tx.insert(s.personCompany).values(
    staffPersons.map((p, i) => ({
      ...t,
      personId: p.id,
      staffNumber: `${plan.codePrefix}${String(i + 1).padStart(4, '0')}`,
      position: ['Estate manager', 'Front desk officer', 'Security guard', 'Technician', 'Cleaner', 'Supervisor'][
        i % 6
      ],
      yearOfBirth: 1970 + ((i * 7) % 30),
      departmentId: depts[i % depts.length].id,
      companyType: plan.companyType,
    })),
  );
  const adminPersonId = staffPersons[0].id;
  const staffPersonId = plan.staffUsername ? staffPersons[1].id : adminPersonId;
  await tx.insert(s.account).values([
    {
      ...t,
      personId: adminPersonId,
      username: plan.adminUsername,
      email: `${plan.adminUsername}@example.com`,
      passwordHash: hashes.admin,
      roleId: adminRole.id,
      kind: 'staff' as const,
    },
    ...(plan.staffUsername
      ? [
          {
            ...t,
            personId: staffPersonId,
            username: plan.staffUsername,
            email: `${plan.staffUsername}@example.com`,
            passwordHash: hashes.staff,
            roleId: staffRoleId,
            kind: 'staff' as const,
          },
        ]
      : []),
  ]);

  // Blocks, floors, units.
  const blocks = await tx
    .insert(s.block)
    .values(
      plan.blocks.map((name, i) => ({
        ...t,
        name,
        number: String(i + 1),
        floorCount: plan.floors,
        unitsPerFloor: plan.unitsPerFloor,
        prefix: name.slice(-1),
        suffix: '',
        houseType: 1,
      })),
    )
    .returning({ id: s.block.id, name: s.block.name });
  const floorRows = await tx
    .insert(s.floor)
    .values(
      blocks.flatMap((b) =>
        Array.from({ length: plan.floors }, (_, f) => ({ ...t, blockId: b.id, name: `${f + 1}/F`, number: f + 1 })),
      ),
    )
    .returning({ id: s.floor.id, blockId: s.floor.blockId, number: s.floor.number });
  const units = await tx
    .insert(s.unit)
    .values(
      floorRows.flatMap((f) =>
        Array.from({ length: plan.unitsPerFloor }, (_, u) => ({
          ...t,
          blockId: f.blockId,
          floorId: f.id,
          name: `${f.number}${String.fromCharCode(65 + u)}`,
          room: rnd.int(1, 4),
          livingRoom: 1,
          restroom: rnd.int(1, 2),
          invitePerson: 5,
          inviteCode: newInviteCode(),
          authStatus: 2,
        })),
      ),
    )
    .returning({ id: s.unit.id });
  const [park] = await tx
    .insert(s.carPark)
    .values({ ...t, name: 'Basement car park', seatCount: plan.carSpaces })
    .returning();
  const spaces = await tx
    .insert(s.carSpace)
    .values(
      Array.from({ length: plan.carSpaces }, (_, i) => ({
        ...t,
        carParkId: park.id,
        carparkCode: `P${String(i + 1).padStart(3, '0')}`,
        type: i % 5 === 0 ? 2 : 1,
        plate: i % 3 === 0 ? null : `${plan.codePrefix}${1000 + i * 7}`,
        inviteCode: newInviteCode(),
        authStatus: 2,
      })),
    )
    .returning({ id: s.carSpace.id });
  const shops = await tx
    .insert(s.shop)
    .values(
      Array.from({ length: plan.shops }, (_, i) => ({
        ...t,
        shopCode: `G${String(i + 1).padStart(2, '0')}`,
        name: ['Bakery', 'Pharmacy', 'Laundry', 'Cafe', 'Florist', 'Stationery', 'Barber', 'Grocer'][i % 8],
        inviteCode: newInviteCode(),
        authStatus: 2,
      })),
    )
    .returning({ id: s.shop.id });

  // Residents: the first `residentAccounts` get accounts resident1… (password resident123).
  const residentCount = plan.residentAccounts + plan.extraResidents;
  const residents = await tx
    .insert(s.person)
    .values(
      Array.from({ length: residentCount }, (_, i) => ({
        ...t,
        name:
          i < plan.residentAccounts
            ? `Resident ${i + 1} ${LAST[i % LAST.length]}`
            : `${rnd.pick(FIRST)} ${rnd.pick(LAST)}`,
        gender: rnd.int(1, 2),
        images: [{ url: img(`avatar-${i % 8}`) }],
        tel: `+852 6${String(1000000 + i * 137).slice(-7)}`,
        email: i < plan.residentAccounts ? `resident${i + 1}@example.com` : null,
        accountType: rnd.int(1, 4),
      })),
    )
    .returning({ id: s.person.id });
  if (plan.residentAccounts > 0) {
    await tx.insert(s.account).values(
      residents.slice(0, plan.residentAccounts).map((p, i) => ({
        ...t,
        personId: p.id,
        username: `resident${i + 1}`,
        email: `resident${i + 1}@example.com`,
        passwordHash: hashes.resident,
        kind: 'resident' as const,
      })),
    );
  }

  // Links: unit k gets an owner; every third a tenant; every fourth a relative. resident1 owns
  // unit 1, space 1; resident2 rents unit 2; resident3 is a relative in unit 1; resident4 owns
  // shop 1; resident5 owns unit 3 and rents space 2. A few links wait for review (status 1).
  type Link = typeof s.personHouse.$inferInsert;
  const links: Link[] = [];
  const r = (i: number) => residents[i % residents.length].id;
  const joinTime = () => ago(now, rnd.int(1, 400));
  if (plan.residentAccounts >= 5) {
    links.push(
      {
        ...t,
        personId: r(0),
        houseType: 1,
        unitId: units[0].id,
        identity: 1,
        houseCertCode: 'HC-0001',
        houseCertImg: img('cert-1'),
        joinTime: joinTime(),
      },
      { ...t, personId: r(0), houseType: 2, carSpaceId: spaces[0].id, identity: 1, joinTime: joinTime() },
      { ...t, personId: r(1), houseType: 1, unitId: units[1].id, identity: 2, joinTime: joinTime() },
      { ...t, personId: r(2), houseType: 1, unitId: units[0].id, identity: 3, relation: 2, joinTime: joinTime() },
      { ...t, personId: r(3), houseType: 3, shopId: shops[0].id, identity: 1, joinTime: joinTime() },
      {
        ...t,
        personId: r(4),
        houseType: 1,
        unitId: units[2].id,
        identity: 1,
        houseCertCode: 'HC-0003',
        joinTime: joinTime(),
      },
      { ...t, personId: r(4), houseType: 2, carSpaceId: spaces[1].id, identity: 2, joinTime: joinTime() },
    );
  }
  const start = plan.residentAccounts;
  let next = start;
  for (let k = plan.residentAccounts >= 5 ? 3 : 0; k < units.length; k++) {
    if (k % 5 === 4) continue; // some units have no owner yet
    links.push({
      ...t,
      personId: r(next++),
      houseType: 1,
      unitId: units[k].id,
      identity: 1,
      houseCertCode: `HC-${String(k + 1).padStart(4, '0')}`,
      joinTime: joinTime(),
    });
    if (k % 3 === 0)
      links.push({ ...t, personId: r(next++), houseType: 1, unitId: units[k].id, identity: 2, joinTime: joinTime() });
    if (k % 4 === 0)
      links.push({
        ...t,
        personId: r(next++),
        houseType: 1,
        unitId: units[k].id,
        identity: 3,
        relation: rnd.int(1, 5),
        joinTime: joinTime(),
      });
  }
  for (let k = plan.residentAccounts >= 5 ? 2 : 0; k < spaces.length; k += 2)
    links.push({
      ...t,
      personId: r(next++),
      houseType: 2,
      carSpaceId: spaces[k].id,
      identity: 1,
      joinTime: joinTime(),
    });
  for (let k = plan.residentAccounts >= 5 ? 1 : 0; k < shops.length; k++)
    links.push({
      ...t,
      personId: r(next++),
      houseType: 3,
      shopId: shops[k].id,
      identity: k % 2 ? 2 : 1,
      joinTime: joinTime(),
    });
  // Pending owner reviews (the owner-review screen).
  for (let k = 0; k < 3; k++)
    links.push({
      ...t,
      personId: r(next++),
      houseType: 1,
      unitId: units[(k * 5 + 4) % units.length].id,
      identity: 1,
      status: 1,
      authStatus: 2,
      houseCertCode: `HC-P${k}`,
      houseCertImg: img(`cert-p${k}`),
      joinTime: ago(now, k * 0.5),
    });
  const linkRows = await tx.insert(s.personHouse).values(links).returning();

  // History: people who left, and the record of recent joins.
  const history = await tx
    .insert(s.personHouseHistory)
    .values([
      // A unit, a car park space and a shop in turn: each exit message (31, 32, 33) names its own kind of house.
      ...Array.from({ length: 6 }, (_, i) => ({
        ...t,
        personId: r(start + i),
        houseType: (i % 3) + 1,
        unitId: i % 3 === 0 ? units[(i * 7) % units.length].id : null,
        carSpaceId: i % 3 === 1 ? spaces[(i * 5) % spaces.length].id : null,
        shopId: i % 3 === 2 ? shops[i % shops.length].id : null,
        identity: (i % 3) + 1,
        purchaseTime: ago(now, 700 - i * 20),
        leaveTime: ago(now, 30 - i * 4),
        operatorPersonId: adminPersonId,
        operationType: 1,
      })),
      ...linkRows.slice(0, 8).map((l, i) => ({
        ...t,
        personId: l.personId,
        houseType: l.houseType,
        unitId: l.unitId,
        carSpaceId: l.carSpaceId,
        shopId: l.shopId,
        identity: l.identity,
        purchaseTime: l.joinTime,
        operatorPersonId: i % 2 ? l.personId : adminPersonId,
        operationType: i % 2 ? 3 : 1,
      })),
    ])
    .returning({
      id: s.personHouseHistory.id,
      personId: s.personHouseHistory.personId,
      houseType: s.personHouseHistory.houseType,
      unitId: s.personHouseHistory.unitId,
      carSpaceId: s.personHouseHistory.carSpaceId,
      shopId: s.personHouseHistory.shopId,
    });
  await refreshEstateHouseStatus(tx, t.housingEstateId);

  // Complaints and work orders in all three states, with replies and ratings.
  const reporters = linkRows.filter((l) => l.status === 2);
  const work = (i: number, total: number) => {
    const l = reporters[i % reporters.length];
    const status = (i % 3) + 1;
    const reportTime = ago(now, ((total - i) * 20) / total + rnd.next());
    const dealt = status >= 2;
    const done = status === 3;
    const score = done ? [rnd.int(1, 3), rnd.int(1, 3), rnd.int(1, 3)] : null;
    return {
      ...t,
      note: '',
      reportPersonId: l.personId,
      personType: l.houseType,
      personIdentity: l.identity,
      unitId: l.unitId,
      carSpaceId: l.carSpaceId,
      shopId: l.shopId,
      reportTime,
      img: i % 4 === 0 ? `${img('report-1')};${img('report-2')}` : null,
      personDealId: dealt ? staffPersonId : null,
      dealTime: dealt ? new Date(reportTime.getTime() + 3_600_000) : null,
      dealNote: dealt ? 'We have sent a colleague to look at it.' : null,
      personCompleteId: done ? adminPersonId : null,
      completeTime: done ? new Date(reportTime.getTime() + 86_400_000) : null,
      completeNote: done ? 'Fixed and checked with the resident.' : null,
      serviceEfficiency: score?.[0] ?? null,
      serviceAttitude: score?.[1] ?? null,
      serviceProcess: score?.[2] ?? null,
      serviceScore: score ? score[0] + score[1] + score[2] : null,
      serviceComment: score ? 'Quick and friendly service.' : null,
      status,
    };
  };
  const complaintRows = Array.from({ length: plan.complaints }, (_, i) => {
    const { status, ...w } = work(i, plan.complaints);
    const [name, note] = COMPLAINT_THEMES[i % COMPLAINT_THEMES.length];
    return { ...w, name, note, complainStatus: status };
  });
  const complaintCodes = codes.assign(
    'C',
    complaintRows.map((w) => w.reportTime),
    plan.timeZone,
  );
  const complaints = await tx
    .insert(s.complain)
    .values(complaintRows.map((w, i) => ({ ...w, complainCode: complaintCodes[i] })))
    .returning({
      id: s.complain.id,
      name: s.complain.name,
      reportPersonId: s.complain.reportPersonId,
      status: s.complain.complainStatus,
      reportTime: s.complain.reportTime,
    });
  const orderRows = Array.from({ length: plan.eventOrders }, (_, i) => {
    const { status, ...w } = work(i + 1, plan.eventOrders + 1);
    const [name, type] = ORDER_THEMES[i % ORDER_THEMES.length];
    return { ...w, name, note: `${name}. Please send someone to check.`, type, eventStatus: status };
  });
  const orderCodes = codes.assign(
    'E',
    orderRows.map((w) => w.reportTime),
    plan.timeZone,
  );
  const orders = await tx
    .insert(s.eventOrder)
    .values(orderRows.map((w, i) => ({ ...w, eventCode: orderCodes[i] })))
    .returning({
      id: s.eventOrder.id,
      name: s.eventOrder.name,
      reportPersonId: s.eventOrder.reportPersonId,
      status: s.eventOrder.eventStatus,
      reportTime: s.eventOrder.reportTime,
    });
  const replyRows = <T extends { id: number; reportPersonId: number; status: number; reportTime: Date }>(rows: T[]) =>
    rows
      .filter((c) => c.status > 1)
      .flatMap((c) => [
        {
          ...t,
          personId: staffPersonId,
          content: REPLIES[0],
          companyType: plan.companyType,
          replyTime: new Date(c.reportTime.getTime() + 1_800_000),
          parent: c.id,
        },
        {
          ...t,
          personId: c.reportPersonId,
          content: REPLIES[3],
          companyType: null,
          replyTime: new Date(c.reportTime.getTime() + 2_400_000),
          parent: c.id,
        },
        {
          ...t,
          personId: adminPersonId,
          content: REPLIES[1],
          companyType: plan.companyType,
          replyTime: new Date(c.reportTime.getTime() + 3_000_000),
          parent: c.id,
        },
      ]);
  const cReplies = replyRows(complaints).map(({ parent, ...x }) => ({ ...x, complainId: parent }));
  const eReplies = replyRows(orders).map(({ parent, ...x }) => ({ ...x, eventOrderId: parent }));
  if (cReplies.length) await tx.insert(s.complainReply).values(cReplies);
  if (eReplies.length) await tx.insert(s.eventReply).values(eReplies);

  // Announcements: info, meeting, vote (one revoked), with reads, votes and comments.
  const blockIds = blocks.map((b) => b.id);
  const anns = await tx
    .insert(s.announcement)
    .values([
      {
        ...t,
        type: 1,
        title: 'Water supply interruption on Saturday',
        content: '<p>Water will be off from 9:00 to 13:00 for tank cleaning.</p>',
        publisherPersonId: adminPersonId,
        recipientBlockIds: blockIds,
        recipientIdentities: [1, 2, 3],
        allowComment: true,
        publishTime: ago(now, 1),
      },
      {
        ...t,
        type: 2,
        title: 'Owners meeting',
        content: '<p>The annual owners meeting takes place in the club house.</p>',
        publisherPersonId: adminPersonId,
        recipientBlockIds: blockIds,
        recipientIdentities: [1],
        meetingPlace: 'Club house',
        meetingTime: ago(now, -7),
        deadline: ago(now, -6),
        publishTime: ago(now, 3),
      },
      {
        ...t,
        type: 3,
        title: 'Vote: new colour for the lobby',
        content: '<p>Choose the colour of the renovated lobby.</p>',
        publisherPersonId: adminPersonId,
        recipientBlockIds: blockIds,
        recipientIdentities: [1, 2],
        selectionMode: 1,
        reminderInterval: 24,
        deadline: ago(now, -10),
        publishTime: ago(now, 5),
      },
      {
        ...t,
        type: 3,
        title: 'Vote: facilities to add',
        content: '<p>Pick any facilities you would like.</p>',
        publisherPersonId: staffPersonId,
        recipientBlockIds: blockIds.slice(0, 1),
        recipientIdentities: [1],
        selectionMode: 2,
        reminderInterval: 48,
        deadline: ago(now, -3),
        publishTime: ago(now, 8),
      },
      {
        ...t,
        type: 1,
        title: 'Lift maintenance schedule',
        content: '<p>Lifts in each block are serviced on the first Monday of the month.</p>',
        publisherPersonId: staffPersonId,
        recipientBlockIds: blockIds,
        recipientIdentities: [1, 2, 3],
        publishTime: ago(now, 12),
      },
      {
        ...t,
        type: 1,
        title: 'Cancelled: fire drill',
        content: '<p>This notice was sent by mistake.</p>',
        publisherPersonId: adminPersonId,
        recipientBlockIds: blockIds,
        recipientIdentities: [1, 2, 3],
        revoked: true,
        revokedAt: ago(now, 13),
        publishTime: ago(now, 14),
      },
    ])
    .returning({ id: s.announcement.id, type: s.announcement.type });
  await seedAnnouncementRecipients(
    tx,
    t,
    anns.map((a) => a.id),
  );
  const options = await tx
    .insert(s.announcementOption)
    .values([
      ...['Warm white', 'Light grey', 'Sea blue'].map((content, i) => ({
        announcementId: anns[2].id,
        content,
        sort: i,
      })),
      ...['Gym', 'Playground', 'Reading room', 'Barbecue area'].map((content, i) => ({
        announcementId: anns[3].id,
        content,
        sort: i,
      })),
    ])
    .returning({ id: s.announcementOption.id, announcementId: s.announcementOption.announcementId });
  const readers = residents.slice(0, Math.min(20, residents.length));
  await tx
    .insert(s.announcementRead)
    .values(
      anns
        .slice(0, 5)
        .flatMap((a, ai) =>
          readers.filter((_, i) => (i + ai) % 3 !== 0).map((p) => ({ announcementId: a.id, personId: p.id })),
        ),
    );
  const votes = readers.slice(0, 12).flatMap((p, i) => {
    const single = options.filter((o) => o.announcementId === anns[2].id);
    const multi = options.filter((o) => o.announcementId === anns[3].id);
    return [
      { announcementId: anns[2].id, personId: p.id, optionId: single[i % single.length].id },
      ...(i % 2
        ? []
        : multi.slice(0, (i % 3) + 1).map((o) => ({ announcementId: anns[3].id, personId: p.id, optionId: o.id }))),
    ];
  });
  await tx.insert(s.announcementVote).values(votes);
  await tx.insert(s.announcementComment).values(
    readers.slice(0, 3).map((p, i) => ({
      announcementId: anns[0].id,
      personId: p.id,
      content: ['Thanks for the notice.', 'Will the lifts work?', 'Noted.'][i],
    })),
  );

  // Disaster warnings with per-person replies (one revoked), SOS calls.
  const warns = await tx
    .insert(s.disasterWarn)
    .values([
      {
        ...t,
        type: 4,
        content: 'Typhoon signal 8 expected tonight. Stay indoors and secure your windows.',
        publisherPersonId: adminPersonId,
        publishTime: ago(now, 0.2),
      },
      {
        ...t,
        type: 1,
        content: 'Fire alarm in Block B was a false alarm; the fire service has checked.',
        publisherPersonId: adminPersonId,
        publishTime: ago(now, 4),
      },
      {
        ...t,
        type: 2,
        content: 'Earthquake drill next week.',
        publisherPersonId: adminPersonId,
        revoked: true,
        revokedAt: ago(now, 9),
        publishTime: ago(now, 10),
      },
    ])
    .returning({ id: s.disasterWarn.id });
  // One row per person with a confirmed house (their first), as a warning sent from the console
  // has (disaster.repository.ts, `distinct on (person_id)`).
  const warned = [
    ...new Map(
      linkRows
        .filter((l) => l.status === 2)
        .reverse()
        .map((l) => [l.personId, l]),
    ).values(),
  ].reverse();
  await tx.insert(s.disasterWarnPerson).values(
    warns.slice(0, 2).flatMap((w, wi) =>
      warned.map((l, i) => ({
        ...t,
        disasterWarnId: w.id,
        personId: l.personId,
        houseType: l.houseType,
        unitId: l.unitId,
        carSpaceId: l.carSpaceId,
        shopId: l.shopId,
        reply: (i + wi) % 4 === 0 ? null : ((i + wi) % 6) + 1,
        readTime: (i + wi) % 4 === 0 ? null : ago(now, 0.1),
        replyTime: (i + wi) % 4 === 0 ? null : ago(now, 0.1),
      })),
    ),
  );
  const sosLinks = reporters.slice(0, 2);
  const sos = await tx
    .insert(s.sosHelp)
    .values(
      sosLinks.map((l, i) => ({
        ...t,
        personId: l.personId,
        houseType: l.houseType,
        unitId: l.unitId,
        carSpaceId: l.carSpaceId,
        shopId: l.shopId,
        position: i ? 'Car park entrance' : 'Lobby',
        status: i ? 2 : 1,
        handledByPersonId: i ? adminPersonId : null,
        handledAt: i ? ago(now, 0.5) : null,
        handledNote: i ? 'Guard escorted the resident out of the car park.' : null,
        // Both acknowledged: an unacknowledged demo call would ring on every console (issue 21).
        acknowledgedByPersonId: adminPersonId,
        acknowledgedAt: ago(now, i ? 0.9 : 0.04),
        createdAt: ago(now, i ? 1 : 0.05),
      })),
    )
    .returning({ id: s.sosHelp.id, personId: s.sosHelp.personId });
  // Disaster declarations from residents (issue 21): one open, one handled.
  await tx.insert(s.disasterDeclaration).values(
    sosLinks.map((l, i) => ({
      ...t,
      personId: l.personId,
      houseType: l.houseType,
      unitId: l.unitId,
      carSpaceId: l.carSpaceId,
      shopId: l.shopId,
      kind: i ? 2 : 1,
      type: 4,
      content: i ? 'Loose scaffolding swinging over the car park entrance.' : 'Living-room window cracked by the wind.',
      position: i ? 'Car park entrance' : null,
      status: i ? 2 : 1,
      handledByPersonId: i ? adminPersonId : null,
      handledAt: i ? ago(now, 0.3) : null,
      handledNote: i ? 'Contractor secured it; area fenced off.' : null,
      createdAt: ago(now, i ? 0.6 : 0.1),
    })),
  );

  // Notification messages to the staff (types of SPEC §9), some read.
  type Msg = typeof s.message.$inferInsert;
  const msgs: Msg[] = [];
  const toStaff = [adminPersonId, ...(plan.staffUsername ? [staffPersonId] : [])];
  for (const personId of toStaff) {
    complaints.slice(-4).forEach((c, i) =>
      msgs.push({
        ...t,
        personId,
        messageType: 50,
        dataId: c.id,
        personTriggerId: c.reportPersonId,
        name: c.name,
        readStatus: i === 0,
        messageTime: c.reportTime,
      }),
    );
    orders.slice(-4).forEach((o, i) =>
      msgs.push({
        ...t,
        personId,
        messageType: 49,
        dataId: o.id,
        personTriggerId: o.reportPersonId,
        name: o.name,
        readStatus: i === 0,
        messageTime: o.reportTime,
      }),
    );
    complaints
      .filter((c) => c.status > 1)
      .slice(0, 2)
      .forEach((c) =>
        msgs.push({
          ...t,
          personId,
          messageType: 13,
          dataId: c.id,
          personTriggerId: c.reportPersonId,
          name: c.name,
          messageTime: ago(now, 0.3),
        }),
      );
    orders
      .filter((o) => o.status > 1)
      .slice(0, 2)
      .forEach((o) =>
        msgs.push({
          ...t,
          personId,
          messageType: 11,
          dataId: o.id,
          personTriggerId: o.reportPersonId,
          name: o.name,
          messageTime: ago(now, 0.4),
        }),
      );
    linkRows.slice(0, 6).forEach((l, i) =>
      msgs.push({
        ...t,
        personId,
        messageType: 26 + l.houseType,
        dataId: l.id,
        personTriggerId: l.personId,
        unitId: l.unitId,
        carSpaceId: l.carSpaceId,
        shopId: l.shopId,
        readStatus: i % 2 === 0,
        messageTime: ago(now, i),
      }),
    );
    // Exits (31 residential, 32 parking, 33 merchant), each with the house it is about.
    history.slice(0, 3).forEach((h, i) =>
      msgs.push({
        ...t,
        personId,
        messageType: 30 + h.houseType,
        dataId: h.id,
        personHouseHistoryId: h.id,
        personTriggerId: h.personId,
        unitId: h.unitId,
        carSpaceId: h.carSpaceId,
        shopId: h.shopId,
        messageTime: ago(now, 2 + i),
      }),
    );
    if (personId === adminPersonId)
      sos.forEach((x, i) =>
        msgs.push({
          ...t,
          personId,
          messageType: 7,
          dataId: x.id,
          personTriggerId: x.personId,
          position: i ? 'Car park entrance' : 'Lobby',
          readStatus: i === 1,
          messageTime: ago(now, i ? 1 : 0.05),
        }),
      );
  }
  await tx.insert(s.message).values(msgs);

  // Chats: api/src/seed/seed-im.ts (issue 31).

  // Check-in: api/src/seed/seed-checkin.ts (issue 32).
  // The estate's ads and settings: seed-setup.ts (issue 33).
}
