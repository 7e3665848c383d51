import { sql, type SQL } from 'drizzle-orm';
import type { DepartmentRow, Hotline, StaffRow } from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { likePattern, pageRows, queryRows } from '../../db/sql';
import type { TenantScope } from '../../http/request-context';

/** The SQL of enterprise management: the company, its hotlines, departments and staff. */

export interface CompanyRow {
  companyId: number;
  name: string;
  companyType: number;
  contactPerson: string | null;
  contactTel: string | null;
  address: string | null;
  logo: string | null;
}

export async function findCompany(db: DbOrTx, companyId: number): Promise<CompanyRow | undefined> {
  const [row] = await queryRows<CompanyRow>(
    db,
    sql`select id as "companyId", name, company_type as "companyType", contact_person as "contactPerson",
          contact_tel as "contactTel", address, logo
        from company where id = ${companyId}`,
  );
  return row;
}

export async function hotlinesOf(db: DbOrTx, tenant: TenantScope): Promise<Hotline[]> {
  return queryRows<Hotline>(
    db,
    sql`select id as "hotlineId", name, tel, sort from hotline
        where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
        order by sort, id`,
  );
}

// ---------------------------------------------------------------- departments

/** Every department of the estate (a company has hundreds at most): the tree is built from it. */
export async function allDepartments(db: DbOrTx, tenant: TenantScope): Promise<Omit<DepartmentRow, 'level'>[]> {
  return queryRows(
    db,
    sql`select d.id as "departmentId", d.name, d.parent_id as "parentId", p.name as "parentName",
          d.principal_person_id as "principalPersonId", pr.name as "principalName", d.sort,
          coalesce(c.n, 0) as "staffCount",
          to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createTime"
        from department d
        left join department p on p.id = d.parent_id
        left join person pr on pr.id = d.principal_person_id
        -- The estate's staff counted once by department (one pass), not once per department.
        left join (select department_id, count(*)::int as n from person_company
                   where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
                     and department_id is not null
                   group by department_id) c on c.department_id = d.id
        where d.company_id = ${tenant.companyId} and d.housing_estate_id = ${tenant.housingEstateId}
        order by d.sort, d.id`,
  );
}

// ---------------------------------------------------------------- staff

/** Which of the four staff views (page/v1 … v4) and its filters. */
export interface StaffFilter {
  keyword?: string;
  gender?: number;
  /** v2: these departments (one and its sub-departments). */
  departmentIds?: number[];
  /** v3 */
  withoutDepartment?: boolean;
  /** v4 */
  withAccount?: boolean;
  roleId?: number;
  /** info, after a write */
  personCompanyIds?: number[];
}

const STAFF_JOINS = sql`
  join person p on p.id = pc.person_id
  left join department d on d.id = pc.department_id
  left join account a on a.person_id = pc.person_id and a.kind = 'staff'
  left join sys_role r on r.id = a.role_id`;

/**
 * The filters, on `person_company pc` alone (the person's and the account's through subqueries),
 * so a page is chosen on the base table before anything is joined to it (a deferred join), and
 * the count joins nothing. The keyword is matched against person_company.search alone.
 */
function staffWhere(tenant: TenantScope, f: StaffFilter): SQL {
  const parts: SQL[] = [
    sql`pc.company_id = ${tenant.companyId}`,
    sql`pc.housing_estate_id = ${tenant.housingEstateId}`,
  ];
  // One column (staff number, name, tel, position; kept by triggers, migration staff_search_triggers),
  // lower-cased as `ilike` would: its trigram index for a rare keyword, a short scan of the estate's
  // employments for a common one, never a join.
  if (f.keyword) parts.push(sql`pc.search like lower(${likePattern(f.keyword)}::text)`);
  if (f.gender) parts.push(sql`exists (select 1 from person p where p.id = pc.person_id and p.gender = ${f.gender})`);
  if (f.departmentIds)
    parts.push(
      f.departmentIds.length
        ? sql`pc.department_id in (${sql.join(
            f.departmentIds.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql`false`,
    );
  if (f.withoutDepartment) parts.push(sql`pc.department_id is null`);
  if (f.withAccount || f.roleId)
    parts.push(
      sql`exists (select 1 from account a where a.person_id = pc.person_id and a.kind = 'staff'${
        f.roleId ? sql` and a.role_id = ${f.roleId}` : sql``
      })`,
    );
  if (f.personCompanyIds)
    parts.push(
      sql`pc.id in (${sql.join(
        f.personCompanyIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  return sql.join(parts, sql` and `);
}

const STAFF_COLUMNS = sql`pc.id as "personCompanyId", p.id as "personId", p.name, p.gender, p.tel,
  pc.staff_number as "staffNumber", pc.position, pc.year_of_birth as "yearOfBirth",
  pc.department_id as "departmentId", d.name as "departmentName", p.images -> 0 ->> 'url' as avatar,
  a.id as "accId", a.username, a.role_id as "roleId", r.role_name as "roleName",
  to_char(pc.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createTime"`;

/**
 * A page of staff: the page's ids chosen from person_company alone, then only those rows joined to
 * person, department and account (a deferred join); the count joins nothing.
 */
export async function pageStaff(
  db: DbOrTx,
  tenant: TenantScope,
  f: StaffFilter,
  page: number,
  limit: number,
): Promise<{ rows: StaffRow[]; total: number }> {
  const where = staffWhere(tenant, f);
  return pageRows<StaffRow>(db, {
    select: (cut) => sql`with page as (select pc.id from person_company pc where ${where} order by pc.id desc ${cut})
      select ${STAFF_COLUMNS} from page join person_company pc on pc.id = page.id ${STAFF_JOINS}
      order by pc.id desc`,
    count: sql`select count(*)::int as n from person_company pc where ${where}`,
    page,
    limit,
  });
}

export async function staffByIds(db: DbOrTx, tenant: TenantScope, personCompanyIds: number[]): Promise<StaffRow[]> {
  const where = staffWhere(tenant, { personCompanyIds });
  return queryRows<StaffRow>(
    db,
    sql`select ${STAFF_COLUMNS} from person_company pc ${STAFF_JOINS} where ${where} order by pc.id`,
  );
}

/** The estate's staff numbers → personCompanyId (for uniqueness and the import's updates). */
export async function staffNumbers(db: DbOrTx, tenant: TenantScope): Promise<Map<string, number>> {
  const rows = await queryRows<{ id: number; staffNumber: string }>(
    db,
    sql`select id, staff_number as "staffNumber" from person_company
        where company_id = ${tenant.companyId} and housing_estate_id = ${tenant.housingEstateId}
          and staff_number is not null`,
  );
  return new Map(rows.map((r) => [r.staffNumber.toLowerCase(), r.id]));
}

// ---------------------------------------------------------------- the import's writes

/** One staff row of an import (checked); `departmentId` null or absent: a known one's stays. */
export interface StaffImportRow {
  staffNumber: string;
  name: string;
  gender: number;
  tel: string | null;
  position: string;
  yearOfBirth: number;
  departmentId?: number | null;
}

/** Rows per statement: under PostgreSQL's 65,535 parameters, and a few statements for thousands. */
const BATCH = 1000;

async function inBatches<T>(rows: T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await write(rows.slice(i, i + BATCH));
}

/**
 * New staff of an import: their persons and employments in multi-row inserts (two statements per
 * thousand rows, not two per row). The persons' ids are taken from the sequence first, so each
 * employment names its person without relying on the order of a RETURNING.
 */
export async function insertStaffRows(
  tx: DbOrTx,
  tenant: TenantScope,
  companyType: number,
  rows: StaffImportRow[],
): Promise<void> {
  await inBatches(rows, async (batch) => {
    const ids = await queryRows<{ id: number }>(
      tx,
      sql`select nextval(pg_get_serial_sequence('person', 'id'))::int as id from generate_series(1, ${batch.length})`,
    );
    const { companyId, housingEstateId } = tenant;
    await tx.execute(sql`insert into person (id, company_id, housing_estate_id, name, gender, tel, account_type)
      overriding system value values ${sql.join(
        batch.map((r, i) => sql`(${ids[i].id}, ${companyId}, ${housingEstateId}, ${r.name}, ${r.gender}, ${r.tel}, 4)`),
        sql`, `,
      )}`);
    await tx.execute(sql`insert into person_company (company_id, housing_estate_id, person_id, company_type, staff_number,
                                                     position, year_of_birth, department_id)
      values ${sql.join(
        batch.map(
          (r, i) =>
            sql`(${companyId}, ${housingEstateId}, ${ids[i].id}, ${companyType}, ${r.staffNumber}, ${r.position},
                 ${r.yearOfBirth}, ${r.departmentId ?? null})`,
        ),
        sql`, `,
      )}`);
  });
}

/**
 * Known staff of an import (personCompanyId → new values): their employments, then their persons,
 * in multi-row updates from a VALUES list, scoped to the estate, each row written only when one
 * of its values changes (a file imported again as it was writes nothing). The employment's search
 * text is written here with the new name and tel (staff_search_text, migration 0035), so the
 * person's rename that follows finds it current and its trigger does not write the employment a
 * second time: a row whose name and position both change is written once. Answers how many of
 * the employments exist (fewer than asked: one was deleted meanwhile).
 */
export async function updateStaffRows(
  tx: DbOrTx,
  tenant: TenantScope,
  rows: (StaffImportRow & { personCompanyId: number })[],
): Promise<number> {
  let found = 0;
  const { companyId, housingEstateId } = tenant;
  const scoped = (alias: 'p' | 'pc') =>
    sql`${sql.raw(alias)}.company_id = ${companyId} and ${sql.raw(alias)}.housing_estate_id = ${housingEstateId}`;
  await inBatches(rows, async (batch) => {
    const [{ n }] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from person_company pc where ${scoped('pc')} and pc.id in (${sql.join(
        batch.map((r) => sql`${r.personCompanyId}`),
        sql`, `,
      )})`,
    );
    found += n;
    await tx.execute(sql`update person_company pc set staff_number = v.staff_number, position = v.position,
        year_of_birth = v.year_of_birth, department_id = coalesce(v.department_id, pc.department_id),
        search = staff_search_text(v.staff_number, v.name, v.tel, v.position)
      from (values ${sql.join(
        batch.map(
          (r) =>
            sql`(${r.personCompanyId}::int, ${r.staffNumber}::text, ${r.position}::text, ${r.yearOfBirth}::int,
                 ${r.departmentId ?? null}::int, ${r.name}::text, ${r.tel}::text)`,
        ),
        sql`, `,
      )}) as v (id, staff_number, position, year_of_birth, department_id, name, tel)
      where pc.id = v.id and ${scoped('pc')}
        and (pc.staff_number, pc.position, pc.year_of_birth, pc.department_id, pc.search)
          is distinct from (v.staff_number, v.position, v.year_of_birth, coalesce(v.department_id, pc.department_id),
                            staff_search_text(v.staff_number, v.name, v.tel, v.position))`);
    await tx.execute(sql`update person p set name = v.name, gender = v.gender, tel = v.tel
      from (values ${sql.join(
        batch.map((r) => sql`(${r.personCompanyId}::int, ${r.name}::text, ${r.gender}::smallint, ${r.tel}::text)`),
        sql`, `,
      )}) as v (id, name, gender, tel)
      join person_company pc on pc.id = v.id and ${scoped('pc')}
      where p.id = pc.person_id and ${scoped('p')}
        and (p.name, p.gender, p.tel) is distinct from (v.name, v.gender, v.tel)`);
  });
  return found;
}
