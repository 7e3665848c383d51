import type { AddressBookSettings, StaffDirectory } from '@pm/shared';
import { AppError } from '../../http/app-error';
import type { AuthedContext } from '../../http/request-context';
import { staffWithPermission } from '../realtime/recipients';
import { residentDeps } from '../resident/resident-api';
import * as repo from './address-book.repository';
import { pinyinQuery } from './pinyin';

/**
 * The address book (SPEC §1, §2): staff by department and residents by house, searched by name
 * and phone (and Pinyin with the settings drawer's switch); the residents' address book their app
 * shows (address-book settings); and what the chat shows beside a conversation with a resident.
 */

/** The residents' address book before anyone saved it. */
const DEFAULT_TITLE = 'Management office';

async function search(
  ctx: AuthedContext,
  key: string | undefined,
  pinyin: boolean | undefined,
): Promise<repo.PersonSearch> {
  const pinyinKey = pinyin ? pinyinQuery(key) : undefined;
  if (pinyinKey) await repo.refreshPinyin(ctx.db, ctx.tenant);
  return { key: key || undefined, pinyinKey };
}

export async function staffDirectory(
  ctx: AuthedContext,
  body: { key?: string; pinyin?: boolean },
): Promise<StaffDirectory> {
  const [staff, departments, chatters] = await Promise.all([
    search(ctx, body.key, body.pinyin).then((s) => repo.listStaff(ctx.db, ctx.tenant, s)),
    repo.listDepartments(ctx.db, ctx.tenant),
    staffWithPermission(ctx.db, ctx.tenant.housingEstateId, 'im:list'),
  ]);
  const canChat = new Set(chatters);
  const sections = new Map<number | null, StaffDirectory['departments'][number]>();
  // Every department shows, in its order, also when empty (unless a search is on).
  if (!body.key) for (const d of departments) sections.set(d.id, { departmentId: d.id, name: d.name, staff: [] });
  for (const s of staff) {
    const section = sections.get(s.departmentId) ?? { departmentId: s.departmentId, name: s.departmentName, staff: [] };
    sections.set(s.departmentId, section);
    section.staff.push({
      personId: s.personId,
      name: s.name,
      images: s.images,
      tel: s.tel,
      position: s.position,
      staffNumber: s.staffNumber,
      canChat: canChat.has(s.personId),
    });
  }
  const order = new Map(departments.map((d, i) => [d.id as number | null, i]));
  return {
    departments: [...sections.values()].sort(
      (a, b) => (order.get(a.departmentId) ?? Infinity) - (order.get(b.departmentId) ?? Infinity),
    ),
  };
}

export async function residentDirectory(
  ctx: AuthedContext,
  body: { page: number; limit: number; key?: string; pinyin?: boolean; houseType?: number },
) {
  const s = await search(ctx, body.key, body.pinyin);
  const { rows, total } = await repo.listResidents(
    ctx.db,
    ctx.tenant,
    { ...s, houseType: body.houseType },
    body.limit,
    (body.page - 1) * body.limit,
  );
  return { list: rows, total, page: body.page, limit: body.limit, totalPage: Math.ceil(total / body.limit) };
}

/** The sections residents see: each entry's staff who can chat, in order; a person at most once. */
async function bookSections(ctx: AuthedContext, book: repo.Book) {
  const [staff, chatters] = await Promise.all([
    repo.listStaff(ctx.db, ctx.tenant, {}),
    staffWithPermission(ctx.db, ctx.tenant.housingEstateId, 'im:list'),
  ]);
  const canChat = new Set(chatters);
  const shown = new Set<number>();
  return book.entries.map((e) => {
    const people = staff.filter(
      (s) => canChat.has(s.personId) && (e.kind === 1 ? s.departmentId === e.id : s.personId === e.id),
    );
    const fresh = people.filter((p) => !shown.has(p.personId));
    for (const p of fresh) shown.add(p.personId);
    return { entry: e, people: fresh };
  });
}

export async function bookSettings(ctx: AuthedContext): Promise<AddressBookSettings> {
  const book = (await repo.readBook(ctx.db, ctx.tenant)) ?? {
    title: DEFAULT_TITLE,
    showPhone: false,
    updatedAt: null,
    entries: [],
  };
  const sections = await bookSections(ctx, book);
  return {
    title: book.title,
    showPhone: book.showPhone,
    updatedAt: book.updatedAt,
    entries: sections.map(({ entry, people }) => ({ ...entry, staffCount: people.length })),
  };
}

export async function saveBookSettings(
  ctx: AuthedContext,
  body: { title: string; showPhone: boolean; entries: { kind: 1 | 2; id: number; title?: string }[] },
): Promise<AddressBookSettings> {
  const keys = body.entries.map((e) => `${e.kind}:${e.id}`);
  if (new Set(keys).size !== keys.length) throw AppError.badRequest('im.errors.entryTwice');
  const known = await repo.knownEntries(
    ctx.db,
    ctx.tenant,
    body.entries.filter((e) => e.kind === 1).map((e) => e.id),
    body.entries.filter((e) => e.kind === 2).map((e) => e.id),
  );
  if (body.entries.some((e) => !(e.kind === 1 ? known.departments : known.staff).has(e.id)))
    throw AppError.badRequest('im.errors.entryUnknown');
  await ctx.db.transaction((tx) => repo.saveBook(tx, ctx.tenant, ctx.caller.personId, body));
  return bookSettings(ctx);
}

/** GET /app/addressbook: the residents' address book, for a resident's token only. */
export async function residentBook(ctx: AuthedContext) {
  residentDeps(ctx);
  const book = await repo.readBook(ctx.db, ctx.tenant);
  if (!book) return { title: DEFAULT_TITLE, sections: [] };
  const sections = await bookSections(ctx, book);
  return {
    title: book.title,
    sections: sections
      .filter((s) => s.people.length > 0)
      .map(({ entry, people }) => ({
        title: entry.title || entry.name,
        people: people.map((p) => ({
          personId: p.personId,
          name: p.name,
          avatar: p.images[0]?.url ?? null,
          position: p.position,
          tel: book.showPhone ? p.tel : null,
        })),
      })),
  };
}

/** Beside a chat with a resident: their houses and open complaints and work orders (each by its permission). */
export async function residentContext(ctx: AuthedContext, personId: number) {
  const person = await repo.estatePerson(ctx.db, ctx.tenant, personId);
  if (!person) throw AppError.notFound();
  const perms = ctx.caller.perms;
  const [houses, complaints, eventOrders] = await Promise.all([
    repo.residentHouses(ctx.db, ctx.tenant, personId),
    perms.has('complain:list') ? repo.openWorkOf(ctx.db, ctx.tenant, 'complain', personId) : null,
    perms.has('eventorder:list') ? repo.openWorkOf(ctx.db, ctx.tenant, 'event_order', personId) : null,
  ]);
  return { personId, name: person.name, tel: person.tel, houses, complaints, eventOrders };
}
