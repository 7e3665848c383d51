import { rm } from 'node:fs/promises';
import { MAX_IMPORT_ROWS, TEL_PATTERN } from '@pm/shared';
import { AppError } from '../../http/app-error';
import type { AuthedContext } from '../../http/request-context';
import { writeInviteCodesXlsx } from '../property/house-codes';
import { receiveFile, RowChecker } from '../property/property-import.service';
import { dataRows } from '../property/xlsx-rows';
import { STAFF_NUMBER_UNIQUE } from '../../db/schema';
import { isUniqueViolation } from '../../db/sql';
import { recordAudit } from '../audit/record-audit';
import {
  allDepartments,
  insertStaffRows,
  staffNumbers,
  updateStaffRows,
  type StaffImportRow,
} from './enterprise.repository';
import { staffNumberTaken } from './staff.service';

/**
 * Excel import of staff (SPEC §7 importperson): the model in the caller's language, then the file
 * streamed row by row (the property import's reader), every row checked against the file and the
 * estate, and all rows written in one transaction, keyed by staff number (a known number updates
 * that staff member, so a corrected file imported again never adds anyone twice), or none, with
 * each problem by row, column and reason. The rows are written a thousand per statement (5,000
 * staff in about ten statements, not 10,000 round trips: issue 30's budget of 10 s on PGlite).
 */

/** The first of the file's staff numbers the estate gives to another staff member than the file's row does. */
function takenNumber(rows: { input: StaffImportRow; known: number | undefined }[], current: Map<string, number>) {
  for (const { input, known } of rows) {
    const owner = current.get(input.staffNumber.toLowerCase());
    if (owner !== undefined && owner !== known) return input.staffNumber;
  }
  return undefined;
}

const COLUMNS = ['staffNumber', 'name', 'gender', 'tel', 'position', 'yearOfBirth', 'department'] as const;
const headersOf = (ctx: AuthedContext) => COLUMNS.map((c) => ctx.t(`enterprise.import.columns.${c}`));

export async function sendStaffTemplate(ctx: AuthedContext): Promise<void> {
  ctx.res
    .status(200)
    .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .attachment('staff-template.xlsx')
    .set('Cache-Control', 'no-store');
  await writeInviteCodesXlsx(ctx.res, ctx.t('enterprise.import.sheet'), headersOf(ctx), []);
}

export async function importStaff(
  ctx: AuthedContext,
  companyId: number,
  checkOnly = false,
): Promise<{ total: number; created: number; updated: number }> {
  if (companyId !== ctx.tenant.companyId) throw AppError.notFound();
  const file = await receiveFile(ctx);
  try {
    const check = new RowChecker(ctx, headersOf(ctx));
    const numbers = await staffNumbers(ctx.db, ctx.tenant);
    const departments = new Map<string, number>();
    for (const d of await allDepartments(ctx.db, ctx.tenant)) departments.set(d.name.toLowerCase(), d.departmentId);
    const thisYear = new Date().getUTCFullYear();
    const rows: { input: StaffImportRow; known: number | undefined }[] = [];
    const seen = new Set<string>();
    let total = 0;
    try {
      for await (const { row, cells } of dataRows(file.path)) {
        if (++total > MAX_IMPORT_ROWS)
          throw AppError.badRequest('buildings.import.tooManyRows', { max: MAX_IMPORT_ROWS });
        check.start();
        const staffNumber = check.required(row, cells, 0, 30);
        const name = check.required(row, cells, 1, 100);
        const genderText = check.required(row, cells, 2, 1);
        const tel = cells[3] ?? '';
        const position = check.required(row, cells, 4, 50);
        const yearText = check.required(row, cells, 5, 4);
        const departmentName = cells[6] ?? '';
        if (staffNumber && !/^[A-Za-z0-9_-]+$/.test(staffNumber))
          check.failWith(row, 0, 'enterprise.errors.staffNumberFormat');
        if (staffNumber) {
          const key = staffNumber.toLowerCase();
          if (seen.has(key)) check.fail(row, 0, 'inFile', { name: staffNumber });
          seen.add(key);
        }
        let gender: 1 | 2 | null = null;
        if (genderText) {
          if (genderText === '1' || genderText === '2') gender = Number(genderText) as 1 | 2;
          else check.failWith(row, 2, 'enterprise.import.badGender');
        }
        if (tel && !TEL_PATTERN.test(tel)) check.fail(row, 3, 'onlyNumbers');
        let yearOfBirth: number | null = null;
        if (yearText) {
          if (!/^\d+$/.test(yearText)) check.fail(row, 5, 'onlyNumbers');
          else if (Number(yearText) < 1900 || Number(yearText) > thisYear)
            check.failWith(row, 5, 'enterprise.import.badYear', { max: thisYear });
          else yearOfBirth = Number(yearText);
        }
        let departmentId: number | null = null;
        if (departmentName) {
          departmentId = departments.get(departmentName.toLowerCase()) ?? null;
          if (departmentId === null)
            check.failWith(row, 6, 'enterprise.import.noSuchDepartment', { name: departmentName });
        }
        if (staffNumber && name && gender && position && yearOfBirth !== null)
          rows.push({
            // An empty department cell leaves a known staff member's department as it is.
            input: {
              staffNumber,
              name,
              gender,
              tel: tel || null,
              position,
              yearOfBirth,
              departmentId: departmentId ?? undefined,
            },
            known: numbers.get(staffNumber.toLowerCase()),
          });
        check.end();
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      ctx.log.warn({ err }, 'staff import: unreadable file');
      throw AppError.badRequest('buildings.import.notExcel');
    }
    if (total === 0) throw AppError.badRequest('buildings.import.empty');
    if (check.failedRows > 0)
      throw new AppError(400, 'buildings.import.refused', { count: check.failedRows }, { total, errors: check.errors });
    const updated = rows.filter((r) => r.known !== undefined).length;
    // The preview (?check=true) stops here: the same counts, nothing written.
    if (!checkOnly)
      await ctx.db
        .transaction(async (tx) => {
          // A number taken meanwhile by someone else (an edit, another import) refuses the file, as a
          // staff form would be refused; then all rows in a few multi-row statements.
          const taken = takenNumber(rows, await staffNumbers(tx, ctx.tenant));
          if (taken !== undefined) throw staffNumberTaken(taken);
          await insertStaffRows(
            tx,
            ctx.tenant,
            ctx.caller.companyType,
            rows.filter((r) => r.known === undefined).map((r) => r.input),
          );
          const known = rows.flatMap((r) => (r.known === undefined ? [] : [{ ...r.input, personCompanyId: r.known }]));
          if ((await updateStaffRows(tx, ctx.tenant, known)) < known.length) throw AppError.notFound();
          // One event per import (not per row): the counts and the staff numbers it added and changed.
          await recordAudit(tx, ctx, {
            kind: 'import',
            entityId: null,
            action: 'import',
            after: {
              total,
              created: rows.length - updated,
              updated,
              createdNumbers: rows.filter((r) => r.known === undefined).map((r) => r.input.staffNumber),
              updatedNumbers: rows.filter((r) => r.known !== undefined).map((r) => r.input.staffNumber),
            },
            summary: file.name ?? null,
          });
        })
        .catch(async (err: unknown) => {
          // A writer that took a number after the check above: the unique index refuses the file, answered
          // with the number as the check names it.
          if (!isUniqueViolation(err, STAFF_NUMBER_UNIQUE)) throw err;
          throw staffNumberTaken(
            takenNumber(rows, await staffNumbers(ctx.db, ctx.tenant)) ?? rows[0].input.staffNumber,
          );
        });
    return { total, created: rows.length - updated, updated };
  } finally {
    await rm(file.dir, { recursive: true, force: true });
  }
}
