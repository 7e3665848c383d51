import { z } from 'zod';
import { defineEndpoints } from './endpoint';
import {
  IdListSchema,
  IdParamsSchema,
  IdSchema,
  intSchema,
  KeywordSchema,
  listPageSchema,
  PageBodySchema,
} from './common';
import { ImportFormSchema } from './property';

/**
 * Enterprise management (issue 30): the company and its hotlines, departments and staff
 * (`personcompany`). Accounts and roles are declared in account.ts and role.ts.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const FileSchema = z.string().meta({ format: 'binary' });

/**
 * A telephone number (SPEC §5 "Only enter numbers"): digits, with an optional leading + and
 * spaces or dashes between them (`+852 2345 6789`), 3 to 20 characters.
 */
export const TEL_PATTERN = /^\+?\d[\d -]{1,18}\d$/;
export const TelSchema = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .refine((v) => TEL_PATTERN.test(v), { message: 'validation.onlyNumbers' });

const text = (max: number) => z.string().trim().min(1).max(max);

// ---------------------------------------------------------------- the company and its hotlines

export const HotlineSchema = z.object({ hotlineId: z.number(), name: z.string(), tel: z.string(), sort: z.number() });
export type Hotline = z.infer<typeof HotlineSchema>;

/** GET /base/company/info/{companyId}: the caller's company with the hotlines of the caller's estate. */
export const CompanyInfoSchema = z.object({
  companyId: z.number(),
  /** The enterprise name (SPEC §5 "enterprise name" required). */
  name: z.string(),
  /** CompanyType: 1 management committee, 2 property company. */
  companyType: z.number(),
  contactPerson: z.string().nullable(),
  contactTel: z.string().nullable(),
  address: z.string().nullable(),
  /** An upload path (`/upload/files/…`); null: no logo. */
  logo: z.string().nullable(),
  hotlines: z.array(HotlineSchema),
});
export type CompanyInfo = z.infer<typeof CompanyInfoSchema>;

/** The enterprise profile as an administrator edits it (SPEC §5: name, contact person and number required). */
export const CompanyProfileSchema = z.object({
  name: text(100),
  companyType: z.union([z.literal(1), z.literal(2)]).optional(),
  contactPerson: text(50),
  contactTel: TelSchema,
  address: z.string().trim().max(200).nullable().optional(),
  /** An image the estate's staff uploaded (`POST /upload/uploadimage/logo`), the current logo, or null. */
  logo: z.string().trim().min(1).max(500).nullable().optional(),
});
/** POST /base/company/update */
export const CompanyUpdateSchema = CompanyProfileSchema.extend({ companyId: IdSchema });
export const HotlineInputSchema = z.object({ name: text(50), tel: TelSchema });
/** POST /base/company/update/companyandhotline: the profile and the hotlines (in this order), in one transaction. */
export const CompanyAndHotlineSchema = z.object({
  company: CompanyUpdateSchema,
  hotlines: z.array(HotlineInputSchema).max(20),
});

// ---------------------------------------------------------------- departments

export const DepartmentRowSchema = z.object({
  departmentId: z.number(),
  name: z.string(),
  parentId: z.number().nullable(),
  parentName: z.string().nullable(),
  principalPersonId: z.number().nullable(),
  principalName: z.string().nullable(),
  /** Depth in the tree: 1 for a top department, 2 for its sub-departments, and so on. */
  level: z.number(),
  sort: z.number(),
  /** Staff directly in this department. */
  staffCount: z.number(),
  createTime: z.string(),
});
export type DepartmentRow = z.infer<typeof DepartmentRowSchema>;

export interface DepartmentNode extends DepartmentRow {
  children: DepartmentNode[];
}
export const DepartmentNodeSchema: z.ZodType<DepartmentNode> = z.lazy(() =>
  DepartmentRowSchema.extend({ children: z.array(DepartmentNodeSchema) }),
);

/** POST /base/department/page: keyword on the name; parentId lists one department's sub-departments. */
export const DepartmentPageSchema = PageBodySchema.extend({ keyword: KeywordSchema, parentId: IdSchema.optional() });
/** POST /base/department/save. principalPersonId: a staff member of the company (SPEC §5 "principal" required). */
export const DepartmentSaveSchema = z.object({
  name: text(50),
  parentId: IdSchema.nullable().optional(),
  principalPersonId: IdSchema,
  sort: intSchema(0, 100_000).optional(),
});
/** POST /base/department/update: rename, move (parentId; never under itself) or change the principal. */
export const DepartmentUpdateSchema = DepartmentSaveSchema.extend({ departmentId: IdSchema });
/** POST /base/department/delete: refused (409) while one of them has staff or sub-departments. */
export const DepartmentDeleteSchema = z.object({ departmentIds: IdListSchema });

// ---------------------------------------------------------------- staff (personcompany)

export const StaffRowSchema = z.object({
  personCompanyId: z.number(),
  personId: z.number(),
  name: z.string(),
  gender: z.number(),
  tel: z.string().nullable(),
  staffNumber: z.string().nullable(),
  position: z.string().nullable(),
  yearOfBirth: z.number().nullable(),
  departmentId: z.number().nullable(),
  departmentName: z.string().nullable(),
  avatar: z.string().nullable(),
  /** The person's console account, if any. */
  accId: z.number().nullable(),
  username: z.string().nullable(),
  roleId: z.number().nullable(),
  roleName: z.string().nullable(),
  createTime: z.string(),
});
export type StaffRow = z.infer<typeof StaffRowSchema>;

/** The filters every staff view takes: keyword on name, staff number, phone and position; gender. */
export const StaffPageSchema = PageBodySchema.extend({
  keyword: KeywordSchema,
  gender: z.union([z.literal(1), z.literal(2)]).optional(),
});
/** page/v2: one department's staff (with its sub-departments' unless `direct`). */
export const StaffByDepartmentSchema = StaffPageSchema.extend({
  departmentId: IdSchema,
  direct: z.boolean().optional(),
});
/** page/v4: staff with a console account; roleId narrows to one role. */
export const StaffWithAccountSchema = StaffPageSchema.extend({ roleId: IdSchema.optional() });

const thisYear = new Date().getUTCFullYear();
/** POST /base/personcompany/saveorupdate (SPEC §5: name, gender, staff number, position, year of birth required). */
export const StaffSaveSchema = z.object({
  personCompanyId: IdSchema.optional(),
  name: text(100),
  gender: z.union([z.literal(1), z.literal(2)]),
  tel: TelSchema.nullable().optional(),
  staffNumber: text(30).refine((v) => /^[A-Za-z0-9_-]+$/.test(v), { message: 'enterprise.errors.staffNumberFormat' }),
  position: text(50),
  yearOfBirth: intSchema(1900, thisYear),
  departmentId: IdSchema.nullable().optional(),
});
/** POST /base/personcompany/delete: the selected staff ("Select at least one item"). */
export const StaffDeleteSchema = z.object({ personCompanyIds: IdListSchema });
/** POST /base/personcompany/savetodept/{departmentId} and /removedept. */
export const StaffMoveSchema = z.object({ personCompanyIds: IdListSchema });
/** ?check=true: check the file and answer the counts without writing (the import's preview). */
export const StaffImportQuerySchema = z.object({ check: z.enum(['true', 'false']).optional() });
export const StaffImportAnswerSchema = z.object({ total: z.number(), created: z.number(), updated: z.number() });

const STAFF_VIEWS =
  'The four views of the staff list (SPEC names page/v1 to v4 without saying what they are; decided in issue 30): ' +
  'v1 every staff member of the estate; v2 the staff of one department and its sub-departments; ' +
  'v3 staff without a department (to place them); v4 staff with a console account (to give roles).';

export const enterpriseEndpoints = /* @__PURE__ */ defineEndpoints({
  'GET /base/company/info/{id}': {
    permission: 'authenticated',
    summary:
      "The caller's company (id = its companyId; another company answers 404): profile and the hotlines of the caller's estate",
    params: IdParamsSchema,
    response: CompanyInfoSchema,
  },
  'POST /base/company/update': {
    permission: 'system:company',
    summary: "Changes the company's profile (name, type, contact person and number, address, logo)",
    body: CompanyUpdateSchema,
    response: CompanyInfoSchema,
  },
  'POST /base/company/update/companyandhotline': {
    permission: 'system:company',
    summary: "Changes the profile and replaces the estate's hotlines (in the order sent), in one transaction",
    body: CompanyAndHotlineSchema,
    response: CompanyInfoSchema,
  },
  'POST /base/company/saveorupdate/{id}': {
    permission: 'system:company',
    summary: "Saves the profile of company {id} (the caller's company; another answers 404)",
    params: IdParamsSchema,
    body: CompanyProfileSchema,
    response: CompanyInfoSchema,
  },
  'GET /base/hotline/list/{id}': {
    permission: 'authenticated',
    summary:
      "The hotlines of the caller's estate, in order (id = the caller's companyId; another company gets an empty list). Residents read them too",
    params: IdParamsSchema,
    response: z.array(HotlineSchema),
  },

  'POST /base/department/page': {
    permission: 'system:dept',
    summary: 'Departments of the estate, paged (keyword on the name, parentId for sub-departments)',
    body: DepartmentPageSchema,
    response: listPageSchema(DepartmentRowSchema),
  },
  'POST /base/department/save': {
    permission: 'system:dept',
    summary: 'Creates a department under parentId (none: a top department) with its principal',
    body: DepartmentSaveSchema,
    response: DepartmentRowSchema,
  },
  'POST /base/department/update': {
    permission: 'system:dept',
    summary: 'Renames, moves (never under itself or its sub-departments) or changes the principal of a department',
    body: DepartmentUpdateSchema,
    response: DepartmentRowSchema,
  },
  'POST /base/department/delete': {
    permission: 'system:dept',
    summary: 'Deletes departments; refused (409) while one has staff or sub-departments',
    body: DepartmentDeleteSchema,
    response: z.object({ deleted: z.number() }),
  },
  'GET /base/department/list/v1/{id}': {
    permission: 'system:dept',
    summary: "The department tree of the caller's estate (id = the caller's companyId; another company gets [])",
    params: IdParamsSchema,
    response: z.array(DepartmentNodeSchema),
  },
  'GET /base/department/info/{id}': {
    permission: 'system:dept',
    summary: 'One department of the estate',
    params: IdParamsSchema,
    response: DepartmentRowSchema,
  },

  'GET /base/personcompany/info/{id}': {
    permission: 'system:staff',
    summary: 'One staff member (id = personCompanyId)',
    params: IdParamsSchema,
    response: StaffRowSchema,
  },
  'POST /base/personcompany/saveorupdate': {
    permission: 'system:staff',
    summary: 'Creates (no personCompanyId) or changes a staff member; the staff number is unique in the estate',
    body: StaffSaveSchema,
    response: StaffRowSchema,
  },
  'POST /base/personcompany/delete': {
    permission: 'system:staff',
    summary:
      'Ends the employment of the selected staff (the person stays, for the history of what they did); refused (409) for staff with a console account: delete the account first',
    body: StaffDeleteSchema,
    response: z.object({ deleted: z.number() }),
  },
  'POST /base/personcompany/page/v1': {
    permission: 'system:staff',
    summary: `Every staff member of the estate, paged. ${STAFF_VIEWS}`,
    body: StaffPageSchema,
    response: listPageSchema(StaffRowSchema),
  },
  'POST /base/personcompany/page/v2': {
    permission: 'system:staff',
    summary: `The staff of department departmentId and its sub-departments (only its own with direct: true). ${STAFF_VIEWS}`,
    body: StaffByDepartmentSchema,
    response: listPageSchema(StaffRowSchema),
  },
  'POST /base/personcompany/page/v3': {
    permission: 'system:staff',
    summary: `Staff without a department. ${STAFF_VIEWS}`,
    body: StaffPageSchema,
    response: listPageSchema(StaffRowSchema),
  },
  'POST /base/personcompany/page/v4': {
    permission: 'system:staff',
    summary: `Staff with a console account (roleId: holders of that role). ${STAFF_VIEWS}`,
    body: StaffWithAccountSchema,
    response: listPageSchema(StaffRowSchema),
  },
  'POST /base/personcompany/savetodept/{id}': {
    permission: 'system:staff',
    summary: 'Moves the selected staff into department {id}',
    params: IdParamsSchema,
    body: StaffMoveSchema,
    response: z.object({ updated: z.number() }),
  },
  'POST /base/personcompany/removedept': {
    permission: 'system:staff',
    summary: 'Takes the selected staff out of their department',
    body: StaffMoveSchema,
    response: z.object({ updated: z.number() }),
  },
  'GET /base/personcompany/import/template': {
    permission: 'system:staff',
    summary:
      "The Excel model of a staff import, its headers in the caller's language: staff number, name, gender (1 male, 2 female), phone, position, year of birth, department (its name)",
    answer: 'raw',
    answerContentType: XLSX,
    response: FileSchema,
  },
  'POST /base/personcompany/importperson/{companyId}': {
    permission: 'system:staff',
    summary:
      'Imports staff from an Excel file in field "file" (the model\'s columns), keyed by staff number: a known number updates that staff member, a new one adds one. Every row is checked (required, numbers only, duplicates in the file, unknown departments); one bad row and nothing is written: 400 with data { total, errors: [{ row, column, reason }] }. With ?check=true the file is only checked (the preview): the same answer, nothing written. companyId is the caller\'s (another answers 404)',
    params: z.object({ companyId: IdSchema }),
    query: StaffImportQuerySchema,
    bodyType: 'multipart',
    formBody: ImportFormSchema,
    response: StaffImportAnswerSchema,
  },
});
