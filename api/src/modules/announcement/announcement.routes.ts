import { listPage } from '@pm/shared';
import { route, type ApiModule } from '../../http/define-route';
import {
  countRecipients,
  hideComment,
  listComments,
  exportResults,
  getAnnouncement,
  listAnnouncements,
  listReaders,
  ownAnnouncement,
  publish,
  recipientChoices,
  revoke,
} from './announcement.service';

/** The staff's announcement calls (SPEC §2 announcement management; permission bulletin:list). */
export const announcementModule: ApiModule = {
  name: 'announcement',
  routes: [
    route('POST /announcement/query/list', async (ctx, { body }) => {
      const { type, revoked, keyword, page, limit } = body;
      const { rows, total } = await listAnnouncements(
        ctx.db,
        ctx.tenant,
        { type, revoked, keyword },
        limit,
        (page - 1) * limit,
      );
      return listPage(rows, total, body);
    }),
    route('POST /announcement/query/id/{id}', async (ctx, { params }) => getAnnouncement(ctx, params.id)),
    route('POST /announcement/query/readers/{id}', async (ctx, { params, body }) => {
      const a = await ownAnnouncement(ctx, params.id);
      const { rows, total } = await listReaders(ctx.db, a, body.read, body.limit, (body.page - 1) * body.limit);
      return listPage(rows, total, body);
    }),
    route('POST /announcement/recipients/count', async (ctx, { body }) => ({
      count: await countRecipients(ctx.db, ctx.tenant, body),
    })),
    route('GET /announcement/recipients/choices', async (ctx) => recipientChoices(ctx.db, ctx.tenant)),
    route('POST /announcement/save', async (ctx, { body }) => publish(ctx, body)),
    route('POST /announcement/revoke', async (ctx, { body }) => revoke(ctx, body.id)),
    route('POST /announcement/query/comments/{id}', async (ctx, { params }) =>
      listComments(ctx.db, (await ownAnnouncement(ctx, params.id)).id, false),
    ),
    route('POST /announcement/comment/hide', async (ctx, { body }) => hideComment(ctx, body.id, body.hidden)),
    route('GET /announcement/export/{id}', async (ctx, { params }) => {
      const file = await exportResults(ctx, await ownAnnouncement(ctx, params.id));
      ctx.res
        .status(200)
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .attachment(`announcement-${params.id}.xlsx`)
        .send(file);
    }),
  ],
};
