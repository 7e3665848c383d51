import { z } from 'zod';
import { IdParamsSchema, PersonImageSchema, intSchema } from '@pm/shared';
import { AppError } from '../../http/app-error';
import { defineRoute, type ApiModule } from '../../http/define-route';
import type { AuthedContext } from '../../http/request-context';
import { findPerson, updatePerson, type PersonChanges } from './person.service';

const PersonInfoSchema = z.object({
  personId: z.number(),
  name: z.string(),
  gender: z.number(),
  tel: z.string().nullable(),
  email: z.string().nullable(),
  images: z.array(PersonImageSchema),
  accountType: z.number(),
});

/** The profile dialog's fields (SPEC §2 "edit profile"): name, gender, tel, avatar images (at most 9). */
const PersonSaveSchema = z.object({
  name: z.string().trim().min(1).max(100),
  gender: intSchema(1, 2).optional(),
  tel: z.string().trim().max(30).nullable().optional(),
  images: z
    .array(z.object({ url: z.string().max(500) }))
    .max(9)
    .optional(),
});

/** A person's own record, or any person of the estate with system:staff or the person list permission. */
function assertMayUse(ctx: AuthedContext, personId: number): void {
  if (personId === ctx.caller.personId) return;
  if (!ctx.caller.perms.has('system:staff')) throw AppError.forbidden();
}

export const personModule: ApiModule = {
  name: 'person',
  routes: [
    defineRoute({
      method: 'get',
      path: '/base/person/info/:id',
      permission: 'authenticated',
      summary: 'A person of the estate (own record, or any with system:staff)',
      params: IdParamsSchema,
      response: PersonInfoSchema,
      handler: async (ctx, { params }) => {
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
      },
    }),
    defineRoute({
      method: 'post',
      path: '/base/person/saveorupdate/:id',
      permission: 'authenticated',
      summary: 'Changes name, gender, phone and avatar of a person (own record, or any with system:staff)',
      params: IdParamsSchema,
      body: PersonSaveSchema,
      handler: async (ctx, { params, body }) => {
        assertMayUse(ctx, params.id);
        const changes: PersonChanges = { name: body.name };
        if (body.gender !== undefined) changes.gender = body.gender;
        if (body.tel !== undefined) changes.tel = body.tel;
        if (body.images !== undefined) changes.images = body.images;
        if (!(await updatePerson(ctx.db, ctx.tenant, params.id, changes))) throw AppError.notFound();
        return null;
      },
    }),
  ],
};
