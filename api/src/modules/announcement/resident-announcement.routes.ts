import { route, type ApiModule } from '../../http/define-route';
import { residentDeps as deps } from '../resident/resident-api';
import * as resident from './resident-announcement.service';

/** The resident's side of announcements and votes (DESIGN §5): list, read, vote. */
export const residentAnnouncementModule: ApiModule = {
  name: 'resident-announcement',
  routes: [
    route('GET /app/announcement/list', async (ctx) => resident.listMine(deps(ctx))),
    route('POST /app/announcement/read', async (ctx, { body }) => resident.readAnnouncement(deps(ctx), body.id)),
    route('POST /app/announcement/comment', async (ctx, { body }) => resident.comment(deps(ctx), body)),
    route('GET /app/announcement/comments/{id}', async (ctx, { params }) => resident.commentsOf(deps(ctx), params.id)),
    route('POST /app/announcement/vote', async (ctx, { body }) => resident.voteAnnouncement(deps(ctx), body)),
  ],
};
