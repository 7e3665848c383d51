import { AppError } from '../../http/app-error';
import { route, type ApiModule } from '../../http/define-route';
import {
  deleteRoles,
  menuPage,
  menuTree,
  roleInfoAndMenu,
  roleList,
  rolePage,
  rolePersonPage,
  saveRole,
  setPersonsRole,
} from './role.service';

/** SPEC §7 "Company, people, departments, roles": roles, their menus and who holds them. */
export const roleModule: ApiModule = {
  name: 'role',
  routes: [
    route('GET /base/sysrole/infoandmenu/{id}', async (ctx, { params }) => roleInfoAndMenu(ctx, params.id)),
    route('GET /base/sysrole/list/{id}', async (ctx, { params }) => roleList(ctx, params.id)),
    route('POST /base/sysrole/page', async (ctx, { body }) => rolePage(ctx, body)),
    route('POST /base/sysrole/saveorupdate', async (ctx, { body }) => saveRole(ctx, body)),
    route('POST /base/sysrole/delete', async (ctx, { body }) => deleteRoles(ctx, body.roleIds, body.moveTo)),
    route('POST /base/sysrole/person/page', async (ctx, { body }) => rolePersonPage(ctx, body)),
    route('POST /base/sysrole/saveperson/batch/{a}/{b}', async (ctx, { params, body }) => {
      if (params.b !== ctx.tenant.companyId) throw AppError.notFound();
      return { updated: await setPersonsRole(ctx, body.personIds, params.a) };
    }),
    route('POST /base/sysrole/delete/person', async (ctx, { body }) => ({
      updated: await setPersonsRole(ctx, body.personIds, null, body.roleId),
    })),
    route('GET /base/sysmenu/all/menu/{id}', async (ctx, { params }) => menuTree(ctx.db, ctx.tenant, params.id)),
    route('POST /base/sysmenu/page/v2', async (ctx, { body }) => menuPage(ctx.db, body)),
  ],
};
