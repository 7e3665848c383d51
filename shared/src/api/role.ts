import { z } from 'zod';
import { defineEndpoints } from './endpoint';
import { IdListSchema, IdParamsSchema, IdSchema, KeywordSchema, listPageSchema, PageBodySchema } from './common';

export const MenuSchema = z.object({ menuId: z.number(), name: z.string(), path: z.string(), perms: z.string() });

/** GET /base/sysrole/infoandmenu/{roleId}: the role and its menus; a person's permissions are the menus' perms. */
export const RoleInfoAndMenuSchema = z.object({
  roleId: z.number(),
  roleName: z.string(),
  roleValue: z.string(),
  remark: z.string().nullable(),
  menus: z.array(MenuSchema),
});

export const RoleRowSchema = z.object({
  roleId: z.number(),
  roleName: z.string(),
  roleValue: z.string(),
  remark: z.string().nullable(),
  personCount: z.number(),
  createTime: z.string(),
});
/** POST /base/sysrole/page */
export const RolePageSchema = PageBodySchema.extend({ keyword: KeywordSchema });
export type RoleRow = z.infer<typeof RoleRowSchema>;
export const RolePageAnswerSchema = listPageSchema(RoleRowSchema);

/** POST /base/sysrole/saveorupdate: without roleId creates the role. menuIds replace the role's menus. */
export const RoleSaveSchema = z.object({
  roleId: IdSchema.optional(),
  roleName: z.string().trim().min(1).max(50),
  roleValue: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .regex(/^[A-Za-z0-9_]+$/)
    .optional(),
  remark: z.string().trim().max(200).optional(),
  menuIds: z.array(IdSchema).max(500).default([]),
});
/**
 * POST /base/sysrole/delete: refused (409) while someone holds one of the roles, unless moveTo
 * names another role of the estate: the holders are moved to it in the same transaction.
 */
export const RoleDeleteSchema = z.object({ roleIds: IdListSchema, moveTo: IdSchema.optional() });
/** POST /base/sysrole/saveperson/batch/{roleId}/{companyId}: gives the role to these persons' accounts. */
export const RolePersonsSchema = z.object({ personIds: IdListSchema });
export const RoleBatchParamsSchema = z.object({ a: IdSchema, b: IdSchema });
/** POST /base/sysrole/delete/person: takes the role away from these persons' accounts. */
export const RoleDeletePersonSchema = z.object({ roleId: IdSchema, personIds: IdListSchema });

/** POST /base/sysrole/person/page: the holders of a role (holding: false = the staff accounts that do not hold it). */
export const RolePersonPageSchema = PageBodySchema.extend({
  roleId: IdSchema,
  holding: z.boolean().default(true),
  keyword: KeywordSchema,
});
export const RolePersonRowSchema = z.object({
  accId: z.number(),
  personId: z.number(),
  username: z.string(),
  name: z.string(),
  roleId: z.number().nullable(),
  roleName: z.string().nullable(),
  enabled: z.boolean(),
});
export type RolePersonRow = z.infer<typeof RolePersonRowSchema>;

export interface MenuNode {
  menuId: number;
  parentId: number | null;
  name: string;
  path: string;
  perms: string;
  hidden: boolean;
  checked: boolean;
  children: MenuNode[];
}
export const MenuNodeSchema: z.ZodType<MenuNode> = z.lazy(() =>
  z.object({
    menuId: z.number(),
    parentId: z.number().nullable(),
    name: z.string(),
    path: z.string(),
    perms: z.string(),
    hidden: z.boolean(),
    checked: z.boolean(),
    children: z.array(MenuNodeSchema),
  }),
);
/** POST /base/sysmenu/page/v2 */
export const MenuPageSchema = PageBodySchema.extend({ keyword: KeywordSchema });
export const MenuRowSchema = MenuSchema.extend({
  parentId: z.number().nullable(),
  hidden: z.boolean(),
  sort: z.number(),
});
export const MenuPageAnswerSchema = listPageSchema(MenuRowSchema);

export const roleEndpoints = /* @__PURE__ */ defineEndpoints({
  'GET /base/sysrole/infoandmenu/{id}': {
    permission: 'authenticated',
    summary:
      "A role and its menus (the permissions are the menus' perms). The own role, or any role of the estate with system:role",
    params: IdParamsSchema,
    response: RoleInfoAndMenuSchema,
  },
  'GET /base/sysrole/list/{id}': {
    permission: 'system:role',
    summary: "Every role of the estate of company {id} (the caller's company; another company gets an empty list)",
    params: IdParamsSchema,
    response: z.array(RoleRowSchema),
  },
  'POST /base/sysrole/page': {
    permission: 'system:role',
    summary: 'Roles of the estate, paged, keyword on name and value',
    body: RolePageSchema,
    response: RolePageAnswerSchema,
  },
  'POST /base/sysrole/saveorupdate': {
    permission: 'system:role',
    summary: 'Creates (no roleId) or changes a role; menuIds replace its menus',
    body: RoleSaveSchema,
    response: z.object({ roleId: z.number() }),
  },
  'POST /base/sysrole/delete': {
    permission: 'system:role',
    summary:
      'Deletes roles of the estate (not the own one). Refused (409) while someone holds one of them, unless moveTo names another role of the estate: the holders get that role in the same transaction',
    body: RoleDeleteSchema,
    response: z.object({ moved: z.number() }),
  },
  'POST /base/sysrole/person/page': {
    permission: 'system:role',
    summary:
      "The staff accounts holding role roleId, paged, keyword on account and person name; holding: false lists the estate's staff accounts that do not hold it (to assign it)",
    body: RolePersonPageSchema,
    response: listPageSchema(RolePersonRowSchema),
  },
  'POST /base/sysrole/saveperson/batch/{a}/{b}': {
    permission: 'system:role',
    summary: "Gives role {a} to the accounts of these persons; {b} is the company (must be the caller's)",
    params: RoleBatchParamsSchema,
    body: RolePersonsSchema,
    response: z.object({ updated: z.number() }),
  },
  'POST /base/sysrole/delete/person': {
    permission: 'system:role',
    summary: "Takes role roleId away from these persons' accounts (their sessions end)",
    body: RoleDeletePersonSchema,
    response: z.object({ updated: z.number() }),
  },
  'GET /base/sysmenu/all/menu/{id}': {
    permission: 'system:role',
    summary: 'The whole menu tree with the menus of role {id} checked',
    params: IdParamsSchema,
    response: z.array(MenuNodeSchema),
  },
  'POST /base/sysmenu/page/v2': {
    permission: 'system:role',
    summary: 'Menus, paged, keyword on name, path and permission code',
    body: MenuPageSchema,
    response: MenuPageAnswerSchema,
  },
});
