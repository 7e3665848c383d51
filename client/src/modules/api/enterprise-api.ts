import type { CompanyInfo, DepartmentNode, DepartmentRow, ListPage, StaffRow } from '@pm/shared';
import { call, type CallInput } from './call';

export type { CompanyInfo, DepartmentNode, DepartmentRow, StaffRow };

/** Enterprise management (issue 30): the company and its hotlines, departments and staff. */
export const fetchCompany = (companyId: number, signal?: AbortSignal) =>
  call('GET /base/company/info/{id}', { id: companyId }, { signal });
export const saveCompanyAndHotlines = (body: CallInput<'POST /base/company/update/companyandhotline'>) =>
  call('POST /base/company/update/companyandhotline', body);

export const fetchDepartments = (body: CallInput<'POST /base/department/page'>, signal?: AbortSignal) =>
  call('POST /base/department/page', body, { signal }) as Promise<ListPage<DepartmentRow>>;
export const fetchDepartmentTree = (companyId: number, signal?: AbortSignal) =>
  call('GET /base/department/list/v1/{id}', { id: companyId }, { signal });
export const fetchDepartment = (id: number, signal?: AbortSignal) =>
  call('GET /base/department/info/{id}', { id }, { signal });
export const saveDepartment = (
  body: CallInput<'POST /base/department/update'> | CallInput<'POST /base/department/save'>,
) =>
  'departmentId' in body && body.departmentId
    ? call('POST /base/department/update', body as CallInput<'POST /base/department/update'>)
    : call('POST /base/department/save', body);
export const deleteDepartments = (departmentIds: number[]) => call('POST /base/department/delete', { departmentIds });

export const fetchStaff = (body: CallInput<'POST /base/personcompany/page/v1'>, signal?: AbortSignal) =>
  call('POST /base/personcompany/page/v1', body, { signal }) as Promise<ListPage<StaffRow>>;
export const fetchStaffMember = (id: number, signal?: AbortSignal) =>
  call('GET /base/personcompany/info/{id}', { id }, { signal });
export const saveStaff = (body: CallInput<'POST /base/personcompany/saveorupdate'>) =>
  call('POST /base/personcompany/saveorupdate', body);
export const deleteStaff = (personCompanyIds: number[]) =>
  call('POST /base/personcompany/delete', { personCompanyIds });

export type { AccountRow } from '@pm/shared';
export const fetchAccounts = (body: CallInput<'POST /account/page'>, signal?: AbortSignal) =>
  call('POST /account/page', body, { signal });
export const fetchRoles = (companyId: number, signal?: AbortSignal) =>
  call('GET /base/sysrole/list/{id}', { id: companyId }, { signal });
export const createAccount = (body: CallInput<'POST /account/update'>) => call('POST /account/update', body);
export const changeAccountRole = (accId: number, roleId: number) =>
  call('GET /account/updaterole/{a}/{b}', { a: accId, b: roleId });
export const resetAccountPassword = (accId: number) => call('GET /account/reset/password/{id}', { id: accId });
/** Ends every session of an account (a wall screen's self-renewing one included). */
export const endAccountSessions = (accId: number) => call('POST /account/sessions/end/{id}', { id: accId });
export const deleteAccounts = (accIds: number[]) => call('POST /account/delete', { accIds });
