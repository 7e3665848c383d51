import { AppError } from '../../http/app-error';
import { route, type ApiModule } from '../../http/define-route';
import type { AuthedContext } from '../../http/request-context';
import { findPerson, updatePerson, type PersonChanges } from './person.service';

/** A person's own record, or any person of the estate with system:staff or the person list permission. */
function assertMayUse(ctx: AuthedContext, personId: number): void {
  if (personId === ctx.caller.personId) return;
  if (!ctx.caller.perms.has('system:staff')) throw AppError.forbidden();
}

export const personModule: ApiModule = {
  name: 'person',
  routes: [
    route('GET /base/person/info/{id}', async (ctx, { params }) => {
      assertMayUse(ctx, params.id);
      const row = await findPerson(ctx.db, ctx.tenant, params.id);
      if (!row) throw AppError.notFound();
      return {
        personId: row.id,
        name: row.name,
        gender: row.gender,
        tel: row.tel,
        email: row.email,
        images: row.images,
        accountType: row.accountType,
      };
    }),
    route('POST /base/person/saveorupdate/{id}', async (ctx, { params, body }) => {
      assertMayUse(ctx, params.id);
      const changes: PersonChanges = { name: body.name };
      if (body.gender !== undefined) changes.gender = body.gender;
      if (body.tel !== undefined) changes.tel = body.tel;
      if (body.images !== undefined) changes.images = body.images;
      if (!(await updatePerson(ctx.db, ctx.tenant, params.id, changes))) throw AppError.notFound();
      return null;
    }),
  ],
};
