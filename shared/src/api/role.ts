import { z } from 'zod';
import { IdListSchema, IdSchema, KeywordSchema, PageBodySchema, listPageSchema } from './common';

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
/** POST /base/sysrole/delete */
export const RoleDeleteSchema = z.object({ roleIds: IdListSchema });
/** POST /base/sysrole/saveperson/batch/{roleId}/{companyId}: gives the role to these persons' accounts. */
export const RolePersonsSchema = z.object({ personIds: IdListSchema });
export const RoleBatchParamsSchema = z.object({ a: IdSchema, b: IdSchema });
/** POST /base/sysrole/delete/person: takes the role away from these persons' accounts. */
export const RoleDeletePersonSchema = z.object({ roleId: IdSchema, personIds: IdListSchema });

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
