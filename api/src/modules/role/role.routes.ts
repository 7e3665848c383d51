import { z } from 'zod';
import {
  IdParamsSchema,
  MenuNodeSchema,
  MenuPageAnswerSchema,
  MenuPageSchema,
  RoleBatchParamsSchema,
  RoleDeletePersonSchema,
  RoleDeleteSchema,
  RoleInfoAndMenuSchema,
  RolePageAnswerSchema,
  RolePageSchema,
  RolePersonsSchema,
  RoleRowSchema,
  RoleSaveSchema,
} from '@pm/shared';
import { AppError } from '../../http/app-error';
import { defineRoute, type ApiModule } from '../../http/define-route';
import {
  deleteRoles,
  menuPage,
  menuTree,
  roleInfoAndMenu,
  roleList,
  rolePage,
  saveRole,
  setPersonsRole,
} from './role.service';

/** SPEC §7 "Company, people, departments, roles": roles, their menus and who holds them. */
export const roleModule: ApiModule = {
  name: 'role',
  routes: [
    defineRoute({
      method: 'get',
      path: '/base/sysrole/infoandmenu/:id',
      permission: 'authenticated',
      summary:
        "A role and its menus (the permissions are the menus' perms). The own role, or any role of the estate with system:role",
      params: IdParamsSchema,
      response: RoleInfoAndMenuSchema,
      handler: async (ctx, { params }) => roleInfoAndMenu(ctx, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/base/sysrole/list/:id',
      permission: 'system:role',
      summary: "Every role of the estate of company {id} (the caller's company; another company gets an empty list)",
      params: IdParamsSchema,
      response: z.array(RoleRowSchema),
      handler: async (ctx, { params }) => roleList(ctx, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/base/sysrole/page',
      permission: 'system:role',
      summary: 'Roles of the estate, paged, keyword on name and value',
      body: RolePageSchema,
      response: RolePageAnswerSchema,
      handler: async (ctx, { body }) => rolePage(ctx, body),
    }),
    defineRoute({
      method: 'post',
      path: '/base/sysrole/saveorupdate',
      permission: 'system:role',
      summary: 'Creates (no roleId) or changes a role; menuIds replace its menus',
      body: RoleSaveSchema,
      response: z.object({ roleId: z.number() }),
      handler: async (ctx, { body }) => saveRole(ctx, body),
    }),
    defineRoute({
      method: 'post',
      path: '/base/sysrole/delete',
      permission: 'system:role',
      summary: 'Deletes roles of the estate (not the own one); their accounts lose the role',
      body: RoleDeleteSchema,
      handler: async (ctx, { body }) => {
        await deleteRoles(ctx, body.roleIds);
        return null;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/base/sysrole/saveperson/batch/:a/:b',
      permission: 'system:role',
      summary: "Gives role {a} to the accounts of these persons; {b} is the company (must be the caller's)",
      params: RoleBatchParamsSchema,
      body: RolePersonsSchema,
      response: z.object({ updated: z.number() }),
      handler: async (ctx, { params, body }) => {
        if (params.b !== ctx.tenant.companyId) throw AppError.notFound();
        return { updated: await setPersonsRole(ctx, body.personIds, params.a) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/base/sysrole/delete/person',
      permission: 'system:role',
      summary: "Takes role roleId away from these persons' accounts (their sessions end)",
      body: RoleDeletePersonSchema,
      response: z.object({ updated: z.number() }),
      handler: async (ctx, { body }) => ({ updated: await setPersonsRole(ctx, body.personIds, null, body.roleId) }),
    }),
    defineRoute({
      method: 'get',
      path: '/base/sysmenu/all/menu/:id',
      permission: 'system:role',
      summary: 'The whole menu tree with the menus of role {id} checked',
      params: IdParamsSchema,
      response: z.array(MenuNodeSchema),
      handler: async (ctx, { params }) => menuTree(ctx.db, ctx.tenant, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/base/sysmenu/page/v2',
      permission: 'system:role',
      summary: 'Menus, paged, keyword on name, path and permission code',
      body: MenuPageSchema,
      response: MenuPageAnswerSchema,
      handler: async (ctx, { body }) => menuPage(ctx.db, body),
    }),
  ],
};
