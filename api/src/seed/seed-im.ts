import { access, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { ChatRecordType, type ChatSystemLine } from '@pm/shared';
import type { Tx } from '../db/open-database';
import * as s from '../db/schema';
import { FILES_PREFIX } from '../modules/upload/upload-store';
import { ago } from './demo-random';
import { demoImagePath as img } from './demo-images';

/**
 * The demo estate's instant messaging (issue 31): private chats with residents and staff, a
 * group and a staff work group, with pictures, voice, files and system lines, unread counts for
 * the administrator, a few Chinese-named staff and a resident for the Pinyin search ("zs" finds
 * 张三), and the residents' address book. Voice and file messages point at files that
 * {@link ensureChatDemoFiles} writes into the upload directory at start.
 */

const VOICE_SHORT = 'demo/202601/chat-voice-short.wav';
const VOICE_LONG = 'demo/202601/chat-voice-long.wav';
const FILE_RULES = 'demo/202601/chat-house-rules.txt';
const HOUSE_RULES = `Harbour View Garden — house rules\n\n1. Quiet hours are 23:00 to 07:00.\n2. Bulky waste goes to the basement collection point on Saturdays.\n3. Visitors' cars park in P001–P005 for at most 4 hours.\n`;

/** A mono 8 kHz 8-bit WAV of `seconds` of a soft two-tone hum (the demo's voice messages). */
function wav(seconds: number): Buffer {
  const rate = 8000;
  const n = rate * seconds;
  const b = Buffer.alloc(44 + n);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + n, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(n, 40);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const tone = Math.sin(2 * Math.PI * (t % 1 < 0.5 ? 220 : 330) * t) * Math.min(1, (t % 1) * 8, (1 - (t % 1)) * 8);
    b[44 + i] = Math.round(128 + 40 * tone);
  }
  return b;
}

/** Writes the demo chat's voice and file messages into the upload directory (a second start writes nothing). */
export async function ensureChatDemoFiles(uploadDir: string): Promise<void> {
  const files: [string, () => Buffer][] = [
    [VOICE_SHORT, () => wav(4)],
    [VOICE_LONG, () => wav(65)],
    [FILE_RULES, () => Buffer.from(HOUSE_RULES)],
  ];
  for (const [key, make] of files) {
    const file = join(uploadDir, key);
    try {
      await access(file);
    } catch {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, make());
    }
  }
}

interface Line {
  from: number;
  type?: number;
  content: string;
  /** Days before now. */
  at: number;
}

type Tenant = { companyId: number; housingEstateId: number };

/** One conversation with its records; `unreadFor` members have the last n counted records unread. */
async function conversation(
  tx: Tx,
  t: Tenant,
  now: number,
  g: { type: 1 | 2; name: string | null; owner: number; members: number[]; work?: boolean },
  lines: Line[],
  unreadFor: Record<number, number> = {},
): Promise<number> {
  const counted = lines.filter((l) => l.type !== ChatRecordType.system).length;
  const last = lines[lines.length - 1];
  const [group] = await tx
    .insert(s.imGroup)
    .values({
      ...t,
      groupType: g.type,
      name: g.name,
      ownerPersonId: g.owner,
      peerPersonId: g.type === 1 ? g.members.find((m) => m !== g.owner) : null,
      isWorkGroup: g.work ?? false,
      lastSeq: lines.length,
      messageCount: counted,
      memberCount: g.members.length,
      lastType: last ? (last.type ?? ChatRecordType.text) : null,
      lastContent: last?.content ?? null,
      lastFromPersonId: last?.from ?? null,
      lastAt: last ? ago(now, last.at) : null,
      createdAt: ago(now, lines[0]?.at ?? 0),
      updatedAt: ago(now, last?.at ?? 0),
    })
    .returning({ id: s.imGroup.id });
  if (lines.length > 0)
    await tx.insert(s.imChatRecord).values(
      lines.map((l, i) => ({
        ...t,
        groupId: group.id,
        seq: i + 1,
        fromPersonId: l.from,
        type: l.type ?? ChatRecordType.text,
        content: l.content,
        createdAt: ago(now, l.at),
      })),
    );
  await tx.insert(s.imGroupMember).values(
    g.members.map((personId) => {
      const unread = unreadFor[personId] ?? 0;
      // Read up to the record before the last `unread` counted ones.
      let seq = lines.length;
      for (let left = unread; left > 0 && seq > 0; seq--) if (lines[seq - 1].type !== ChatRecordType.system) left--;
      return {
        groupId: group.id,
        personId,
        readSeq: seq,
        readCount: counted - unread,
        joinedAt: ago(now, lines[0]?.at ?? 0),
      };
    }),
  );
  return group.id;
}

const sys = (line: ChatSystemLine) => JSON.stringify(line);

/** Seeds the chats of the estate of `adminUsername` (the main demo estate) and one of `otherAdmin`'s. */
export async function seedIm(tx: Tx, adminUsername: string, otherAdmin: string): Promise<void> {
  const now = Date.now();
  const accounts = await tx
    .select({ username: s.account.username, personId: s.account.personId, t: s.account.housingEstateId })
    .from(s.account)
    .where(inArray(s.account.username, [adminUsername, 'staff', otherAdmin, 'resident1', 'resident2', 'resident3']));
  const by = (u: string) => accounts.find((a) => a.username === u);
  const admin = by(adminUsername);
  if (!admin) return;
  const [estate] = await tx
    .select({ companyId: s.housingEstate.companyId, id: s.housingEstate.id })
    .from(s.housingEstate)
    .where(eq(s.housingEstate.id, admin.t));
  const t = { companyId: estate.companyId, housingEstateId: estate.id };
  const A = admin.personId;
  const staff = by('staff')?.personId ?? A;
  const r1 = by('resident1')?.personId;
  const r2 = by('resident2')?.personId;
  const r3 = by('resident3')?.personId;
  if (!r1 || !r2 || !r3) return;

  // Chinese-named staff and a resident, for the Pinyin search of the address book.
  const depts = await tx
    .select({ id: s.department.id, name: s.department.name })
    .from(s.department)
    .where(eq(s.department.housingEstateId, t.housingEstateId))
    .orderBy(asc(s.department.sort));
  const dept = (name: string) => depts.find((d) => d.name === name)?.id ?? depts[0]?.id ?? null;
  const chinese = await tx
    .insert(s.person)
    .values([
      {
        ...t,
        name: '张三',
        gender: 1,
        tel: '+852 9000 2001',
        images: [{ url: img('avatar-staff-2') }],
        accountType: 4,
      },
      {
        ...t,
        name: '李小红',
        gender: 2,
        tel: '+852 9000 2002',
        images: [{ url: img('avatar-staff-3') }],
        accountType: 4,
      },
      { ...t, name: '陳大文', gender: 1, tel: '+852 6123 8888', images: [{ url: img('avatar-5') }], accountType: 4 },
    ])
    .returning({ id: s.person.id });
  const [zhang, li, chan] = chinese.map((p) => p.id);
  await tx.insert(s.personCompany).values([
    { ...t, personId: zhang, staffNumber: 'HV0101', position: 'Technician', departmentId: dept('Maintenance') },
    { ...t, personId: li, staffNumber: 'HV0102', position: 'Security guard', departmentId: dept('Security') },
  ]);
  const [unit] = await tx
    .select({ id: s.unit.id })
    .from(s.unit)
    .where(eq(s.unit.housingEstateId, t.housingEstateId))
    .orderBy(asc(s.unit.id))
    .limit(1)
    .offset(5);
  if (unit) await tx.insert(s.personHouse).values({ ...t, personId: chan, houseType: 1, unitId: unit.id, identity: 2 });

  const picture = img('report-1');
  const picture2 = img('report-2');
  const voiceShort = `${FILES_PREFIX}${VOICE_SHORT}?4`;
  const voiceLong = `${FILES_PREFIX}${VOICE_LONG}?65`;
  const rulesFile = `${FILES_PREFIX}${FILE_RULES}?name=${encodeURIComponent('House rules.txt')}&size=${Buffer.byteLength(HOUSE_RULES)}`;
  const names = async (ids: number[]) =>
    (
      await tx.select({ personId: s.person.id, name: s.person.name }).from(s.person).where(inArray(s.person.id, ids))
    ).sort((a, b) => ids.indexOf(a.personId) - ids.indexOf(b.personId));
  const [adminName] = await names([A]);
  const minutes = (m: number) => m / 1440;

  // The administrator and resident1: every kind of message, two unread.
  await conversation(
    tx,
    t,
    now,
    { type: 1, name: null, owner: r1, members: [r1, A] },
    [
      { from: r1, content: 'Good morning! The water pipe under my kitchen sink is leaking.', at: 2.1 },
      { from: A, content: 'Good morning. Could you send a photo of it?', at: 2.09 },
      { from: r1, type: ChatRecordType.picture, content: picture, at: 2.08 },
      { from: A, content: 'Thank you. A technician will come this afternoon.', at: 2.07 },
      { from: r1, type: ChatRecordType.voice, content: voiceShort, at: 1.02 },
      { from: A, type: ChatRecordType.file, content: rulesFile, at: 1.01 },
      { from: A, content: 'Here are the house rules we talked about: https://example.com/rules', at: 1 },
      { from: r1, content: 'The leak is back since this morning, the floor is wet again.', at: minutes(40) },
      { from: r1, type: ChatRecordType.picture, content: picture2, at: minutes(38) },
    ],
    { [A]: 2 },
  );
  // resident2 and the administrator: a long voice message, one unread.
  await conversation(
    tx,
    t,
    now,
    { type: 1, name: null, owner: r2, members: [r2, A] },
    [
      { from: r2, content: 'Hello, is the gym open on public holidays?', at: 3 },
      { from: A, content: 'Yes, from 8:00 to 20:00.', at: 2.9 },
      { from: r2, type: ChatRecordType.voice, content: voiceLong, at: minutes(12) },
    ],
    { [A]: 1 },
  );
  // A Chinese-speaking resident.
  await conversation(
    tx,
    t,
    now,
    { type: 1, name: null, owner: chan, members: [chan, A] },
    [
      { from: chan, content: '你好，請問停車場的月票怎樣續期？', at: 0.3 },
      { from: A, content: '您好，可以到管理處辦理，或者在 App 上續期。', at: 0.29 },
      { from: chan, content: '好的，謝謝！', at: minutes(3) },
    ],
    { [A]: 1 },
  );
  // Staff: the administrator and the front desk.
  if (staff !== A)
    await conversation(tx, t, now, { type: 1, name: null, owner: staff, members: [staff, A] }, [
      { from: staff, content: 'The lift inspection is booked for Thursday 10:00.', at: 1.3 },
      { from: A, content: 'Great, please put a notice in the lobby.', at: 1.29 },
    ]);
  // A group with residents of Block A.
  const groupMembers = [A, staff, r1, r2, r3].filter((p, i, all) => all.indexOf(p) === i);
  await conversation(
    tx,
    t,
    now,
    { type: 2, name: 'Block A residents', owner: A, members: groupMembers },
    [
      {
        from: A,
        type: ChatRecordType.system,
        content: sys({ event: 'created', by: adminName, persons: await names(groupMembers.filter((p) => p !== A)) }),
        at: 5,
      },
      { from: A, content: 'Welcome! This group is for notices about Block A.', at: 5 },
      { from: r3, content: 'Will the water be cut off during the pipe works?', at: 0.9 },
      { from: staff, content: 'Yes, on Saturday from 9:00 to 12:00.', at: 0.8 },
      { from: r2, content: 'Thanks for letting us know.', at: minutes(55) },
    ],
    { [A]: 2, [staff]: 1 },
  );
  // The staff work group of the management office.
  const colleagues = (
    await tx
      .select({ personId: s.personCompany.personId })
      .from(s.personCompany)
      .innerJoin(s.account, and(eq(s.account.personId, s.personCompany.personId), eq(s.account.kind, 'staff')))
      .where(eq(s.personCompany.housingEstateId, t.housingEstateId))
  ).map((p) => p.personId);
  const workMembers = [...new Set([A, staff, zhang, li, ...colleagues.filter((p) => p !== A && p !== staff)])].slice(
    0,
    8,
  );
  await conversation(tx, t, now, { type: 2, name: 'Management office', owner: A, members: workMembers, work: true }, [
    {
      from: A,
      type: ChatRecordType.system,
      content: sys({ event: 'created', by: adminName, persons: await names(workMembers.filter((p) => p !== A)) }),
      at: 20,
    },
    { from: A, content: 'Morning briefing at 9:00 in the office.', at: 1.2 },
    { from: zhang, content: '收到，明天早上檢查水泵。', at: 1.1 },
    { from: li, content: 'Night shift report: all quiet.', at: 0.4 },
  ]);
  // The front desk and resident2.
  if (staff !== A)
    await conversation(tx, t, now, { type: 1, name: null, owner: r2, members: [r2, staff] }, [
      { from: r2, content: 'Is there a parcel for 2A?', at: 0.5 },
      { from: staff, content: 'Yes, you can collect it at the front desk.', at: 0.49 },
    ]);

  // The residents' address book: the management office, maintenance, and the technician 张三.
  await tx.insert(s.imAddressBook).values({ ...t, title: 'Harbour View management office', showPhone: true });
  const entries = [
    { kind: 1, departmentId: dept('Management Office') },
    { kind: 1, departmentId: dept('Maintenance') },
    { kind: 2, personId: zhang, title: 'Technician on duty' },
  ].filter((e) => e.departmentId !== null);
  await tx.insert(s.imAddressBookEntry).values(entries.map((e, i) => ({ ...t, ...e, sort: i })));

  // The other tenant: one private chat, so isolation tests find chats there too.
  const other = by(otherAdmin);
  if (other) {
    const [resident] = await tx
      .select({ id: s.personHouse.personId })
      .from(s.personHouse)
      .where(eq(s.personHouse.housingEstateId, other.t))
      .limit(1);
    const [otherEstate] = await tx
      .select({ companyId: s.housingEstate.companyId })
      .from(s.housingEstate)
      .where(eq(s.housingEstate.id, other.t));
    if (resident && otherEstate)
      await conversation(
        tx,
        { companyId: otherEstate.companyId, housingEstateId: other.t },
        now,
        { type: 1, name: null, owner: resident.id, members: [resident.id, other.personId] },
        [{ from: resident.id, content: 'Is the committee meeting still on Monday?', at: 0.2 }],
        { [other.personId]: 1 },
      );
  }
}
