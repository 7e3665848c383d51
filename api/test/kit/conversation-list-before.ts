// The conversation list as it was read before issue 31's seventh pass (typed columns mapped row
// by row in JS, built per call), kept as the reference the new form (prepared, numbers packed in
// one text) is compared with: by api/test/chat-list-json.test.ts (same rows, order and fields) and by
// api/bench/im.bench.ts (before → after in turns).
import { sql, type SQL } from 'drizzle-orm';
import { ChatGroupType, JoinStatus } from '@pm/shared';
import type { DbOrTx } from '../../src/db/open-database';
import { isoOrNull as iso, likePattern, queryRows } from '../../src/db/sql';
import type { TenantScope } from '../../src/http/request-context';
import { groupsByLookup, type ConversationFilter, type ConversationRow } from '../../src/modules/im/chat.repository';

type Images = { url: string }[];
const images = (v: unknown): Images => ((typeof v === 'string' ? JSON.parse(v) : v) ?? []) as Images;

/**
 * A person's conversations, newest activity first. The page's groups come from the person's
 * memberships alone (index im_group_member_person_current_idx); the last record's copy is on the
 * group row, and only the page is joined with its sender and, for a private chat, the other person
 * (the row's avatar and `members`: the owner or the group's peer_person_id, no member lookup per
 * row); a group's members are its `member_count`, the whole list is groupMembers().
 */
export async function listConversationsBefore(
  db: DbOrTx,
  tenant: TenantScope,
  me: number,
  f: ConversationFilter,
  limit: number,
  offset: number,
): Promise<{ rows: ConversationRow[]; total: number }> {
  const filters: SQL[] = [sql`true`];
  if (f.groupType) filters.push(sql`g.group_type = ${f.groupType}`);
  if (f.key) {
    const like = likePattern(f.key);
    const pinyinLike = f.pinyinKey ? likePattern(f.pinyinKey) : null;
    filters.push(sql`(g.name ilike ${like} ${pinyinLike ? sql`or g.name_pinyin like ${pinyinLike}` : sql``}
      or exists (select 1 from im_group_member om join person op on op.id = om.person_id
        ${pinyinLike ? sql`left join im_person_pinyin opp on opp.person_id = op.id` : sql``}
        where om.group_id = g.id and om.quit_at is null and om.person_id <> ${me}
          and (op.name ilike ${like} ${pinyinLike ? sql`or opp.keys like ${pinyinLike}` : sql``})))`);
  }
  // The person's groups: one primary-key lookup per membership where they are a small share of
  // all groups (offset 0 keeps the planner from turning it back into a hash join), else a join.
  const groupsOfMine = (await groupsByLookup(db, me))
    ? sql`im_group_member m cross join lateral (select * from im_group g0 where g0.id = m.group_id offset 0) g`
    : sql`im_group_member m join im_group g on g.id = m.group_id`;
  const where = sql`m.person_id = ${me} and m.quit_at is null and not g.dismissed
      and g.company_id = ${tenant.companyId} and g.housing_estate_id = ${tenant.housingEstateId}
      and ${sql.join(filters, sql` and `)}`;
  const rows = await queryRows<{
    id: number;
    group_type: number;
    name: string | null;
    owner_person_id: number;
    is_work_group: boolean;
    last_seq: number;
    member_count: number;
    unread: number;
    updated_at: unknown;
    last_type: number | null;
    last_content: string | null;
    last_from_person_id: number | null;
    last_at: unknown;
    total: number;
    r_from_name: string | null;
    other_id: number | null;
    other_name: string | null;
    other_images: unknown;
    other_resident: boolean | null;
  }>(
    db,
    // One statement: the total is a window count over the person's conversations, taken before
    // the page is cut (the sort reads them all anyway).
    sql`with page as (
          select g.id, g.group_type, g.name, g.owner_person_id, g.is_work_group, g.last_seq, g.member_count,
                 g.updated_at, g.message_count - m.read_count as unread,
                 g.last_type, g.last_content, g.last_from_person_id, g.last_at,
                 coalesce(g.updated_at, g.created_at) as active_at, count(*) over ()::int as total,
                 -- A private chat's other party: its owner, or its peer when the owner is me (the
                 -- member lookup only for a chat without a peer, which the migration filled in).
                 case when g.group_type = ${ChatGroupType.private} then
                   case when g.owner_person_id <> ${me} then g.owner_person_id
                        else coalesce(g.peer_person_id, (select om.person_id from im_group_member om
                          where om.group_id = g.id and om.person_id <> ${me} limit 1)) end
                 end as other_id
          from ${groupsOfMine}
          where ${where}
          order by active_at desc, g.id desc
          limit ${limit} offset ${offset})
        select page.id, page.group_type, page.name, page.owner_person_id, page.is_work_group, page.last_seq,
               page.member_count, page.updated_at, page.unread, page.last_type, page.last_content,
               page.last_from_person_id, page.last_at, page.total, rp.name as r_from_name,
               op.id as other_id, op.name as other_name, op.images as other_images,
               op.id is not null and exists (select 1 from person_house ph where ph.person_id = op.id and ph.status = ${JoinStatus.approved}) as other_resident
        from page
          left join person rp on rp.id = page.last_from_person_id
          left join person op on op.id = page.other_id
        order by page.active_at desc, page.id desc`,
  );
  // A page past the end has no row to carry the total.
  const total =
    rows.length > 0
      ? rows[0].total
      : offset === 0
        ? 0
        : ((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${groupsOfMine} where ${where}`))[0]
            ?.n ?? 0);
  return {
    total,
    rows: rows.map((g) => {
      const members =
        g.other_id === null ? [] : [{ personId: g.other_id, name: g.other_name ?? '', images: images(g.other_images) }];
      return {
        groupId: g.id,
        groupType: g.group_type,
        groupName: g.group_type === ChatGroupType.private ? (g.other_name ?? g.name ?? '') : (g.name ?? ''),
        isWorkGroup: g.is_work_group,
        ownerPersonId: g.owner_person_id,
        unread: Math.max(0, Number(g.unread)),
        lastSeq: g.last_seq,
        lastRecord:
          g.last_at === null
            ? null
            : {
                seq: g.last_seq,
                type: g.last_type as number,
                content: g.last_content as string,
                fromPersonId: g.last_from_person_id as number,
                fromName: g.r_from_name as string,
                createdAt: iso(g.last_at) as string,
              },
        members,
        memberCount: g.member_count,
        other: g.other_id === null ? null : { personId: g.other_id, resident: g.other_resident === true },
        updatedAt: iso(g.updated_at),
      };
    }),
  };
}
