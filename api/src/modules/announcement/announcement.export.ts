import ExcelJS from 'exceljs';
import { AnnouncementType } from '@pm/shared';
import type { AuthedContext } from '../../http/request-context';
import { findAnnouncement, listReaders, type AnnouncementRecord } from './announcement.repository';

/** Every recipient, in pages, so the export of 10,000 people never holds one giant query. */
async function allReaders(ctx: AuthedContext, a: AnnouncementRecord) {
  const rows = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await listReaders(ctx.db, a, undefined, 1000, offset);
    rows.push(...page.rows);
    if (page.rows.length < 1000) return rows;
  }
}

/**
 * The announcement's results as an .xlsx workbook (exceljs), in the caller's language: a sheet
 * of totals (SPEC §4 read results) and votes per option, and a sheet of recipients.
 */
export async function exportResults(ctx: AuthedContext, a: AnnouncementRecord): Promise<Buffer> {
  const t = (key: string) => ctx.t(`announcements.${key}`);
  const detail = (await findAnnouncement(ctx.db, ctx.tenant, a.id))!;
  const book = new ExcelJS.Workbook();
  const totals = book.addWorksheet(t('tabs.result'));
  totals.addRow([t('fields.title'), detail.title]);
  totals.addRow([t('fields.type'), t(`type.t${detail.type}`)]);
  totals.addRow([]);
  for (const key of ['recipients', 'unread', 'read', 'readNotVoted', 'readAndVoted'] as const)
    totals.addRow([t(`totals.${key}`), detail.totals[key]]);
  if (detail.type === AnnouncementType.vote) {
    totals.addRow([]);
    totals.addRow([t('voteResult'), t('fields.votes')]).font = { bold: true };
    for (const o of detail.options) totals.addRow([o.content, o.votes]);
  }
  totals.getColumn(1).width = 28;

  const options = new Map(detail.options.map((o) => [o.id, o.content]));
  const people = book.addWorksheet(t('fields.recipients'));
  people.addRow([t('fields.name'), t('fields.readResult'), t('fields.readTime'), t('fields.choice')]).font = {
    bold: true,
  };
  for (const r of await allReaders(ctx, a))
    people.addRow([
      r.name,
      t(`readResult.r${r.readResult}`),
      r.readTime ?? '',
      r.optionIds.map((id) => options.get(id) ?? String(id)).join(', '),
    ]);
  people.columns.forEach((c) => (c.width = 24));
  return Buffer.from(await book.xlsx.writeBuffer());
}
