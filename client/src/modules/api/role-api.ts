import type { MenuNode, RolePersonRow, RoleRow } from '@pm/shared';
import { call, type CallInput } from './call';
import { fetchFile, uploadImport } from './property-api';

export type { MenuNode, RolePersonRow, RoleRow };

/** Roles of enterprise management (issue 30): the roles, their menus and who holds them. */
export const fetchRolePage = (body: CallInput<'POST /base/sysrole/page'>, signal?: AbortSignal) =>
  call('POST /base/sysrole/page', body, { signal });
export const fetchRoleInfo = (roleId: number, signal?: AbortSignal) =>
  call('GET /base/sysrole/infoandmenu/{id}', { id: roleId }, { signal });
/** The whole menu tree (the route table), the menus of role `roleId` checked. */
export const fetchMenuTree = (roleId: number, signal?: AbortSignal) =>
  call('GET /base/sysmenu/all/menu/{id}', { id: roleId }, { signal });
export const saveRole = (body: CallInput<'POST /base/sysrole/saveorupdate'>) =>
  call('POST /base/sysrole/saveorupdate', body);
/** Deletes a role; with `moveTo` its holders get that role in the same step. Errors are shown by the caller. */
export const deleteRole = (roleId: number, moveTo?: number) =>
  call('POST /base/sysrole/delete', { roleIds: [roleId], ...(moveTo ? { moveTo } : {}) }, { silent: true });
export const fetchRolePersons = (body: CallInput<'POST /base/sysrole/person/page'>, signal?: AbortSignal) =>
  call('POST /base/sysrole/person/page', body, { signal });
export const giveRole = (roleId: number, companyId: number, personIds: number[]) =>
  call('POST /base/sysrole/saveperson/batch/{a}/{b}', { a: roleId, b: companyId, personIds });
export const takeRole = (roleId: number, personIds: number[]) =>
  call('POST /base/sysrole/delete/person', { roleId, personIds });

/** The staff import's Excel model, headers in the person's language. */
export const fetchStaffTemplate = () => fetchFile('/base/personcompany/import/template');
/**
 * Uploads a staff file: `check` only checks it (the preview: counts, or the problems by row,
 * column and reason in the ApiError's data), otherwise imports it.
 */
export const uploadStaffFile = (
  companyId: number,
  file: File,
  check: boolean,
  onProgress: (sent: number, total: number) => void,
) =>
  uploadImport<{ total: number; created: number; updated: number }>(
    `/base/personcompany/importperson/${companyId}${check ? '?check=true' : ''}`,
    file,
    onProgress,
  );
