import { z } from 'zod';
import { AnnouncementReadSchema, AnnouncementVoteSchema } from '../../../../shared/src/api/resident';
import { defineRoute, type ApiModule } from '../../http/define-route';
import { Ok, RESIDENT, residentDeps as deps } from '../resident/resident-api';
import * as resident from './resident-announcement.service';

/** The resident's side of announcements and votes (DESIGN §5): read, vote. */
export const residentAnnouncementModule: ApiModule = {
  name: 'resident-announcement',
  routes: [
    defineRoute({
      method: 'post',
      path: '/app/announcement/read',
      permission: 'authenticated',
      summary: `${RESIDENT} Marks an announcement of the caller's estate read (idempotent).`,
      body: AnnouncementReadSchema,
      response: Ok({ id: z.number() }),
      handler: async (ctx, { body }) => resident.readAnnouncement(deps(ctx), body.id),
    }),
    defineRoute({
      method: 'post',
      path: '/app/announcement/vote',
      permission: 'authenticated',
      summary: `${RESIDENT} Votes on a vote announcement { id, optionIds } (replaces an earlier vote; one option for single choice).`,
      body: AnnouncementVoteSchema,
      response: Ok({ id: z.number(), optionIds: z.array(z.number()) }),
      handler: async (ctx, { body }) => resident.voteAnnouncement(deps(ctx), body),
    }),
  ],
};
