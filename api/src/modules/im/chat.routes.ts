import { route, type ApiModule } from '../../http/define-route';
import {
  addGroupMembers,
  clearUnread,
  createGroup,
  dissolveGroup,
  groupInfo,
  groupMembers,
  listGroups,
  listRecords,
  privateChat,
  quitGroup,
  renameGroup,
  saveRecord,
  saveWorkGroup,
} from './chat.service';

/**
 * Instant messaging (SPEC §7). Staff and residents (DESIGN §5) chat with the same calls: a
 * resident with their own token, staff only with im:list (`staffPermission`); work groups are
 * staff's alone (im:list). Every call checks that the caller is a current member of the group.
 */
export const chatModule: ApiModule = {
  name: 'chat',
  routes: [
    route('POST /im/disgroup/list', async (ctx, { body }) => listGroups(ctx, body)),
    route('GET /im/disgroup/info/{id}', async (ctx, { params }) => groupInfo(ctx, params.id)),
    route('POST /im/disgroup/chatgroupperson', async (ctx, { body }) => createGroup(ctx, body)),
    route('POST /im/disgroup/save/work/group/member', async (ctx, { body }) => saveWorkGroup(ctx, body)),
    route('POST /im/disgroup/updat/group/name/{groupId}', async (ctx, { params, body }) => {
      await renameGroup(ctx, params.groupId, body.groupName);
      return null;
    }),
    route('GET /im/disgroup/dismiss/{id}', async (ctx, { params }) => {
      await dissolveGroup(ctx, params.id);
      return null;
    }),
    route('POST /im/disgroupmem/list/{id}', async (ctx, { params }) => groupMembers(ctx, params.id)),
    route('POST /im/disgroupmem/quit/disgroup/{id}', async (ctx, { params }) => {
      await quitGroup(ctx, params.id);
      return null;
    }),
    route('POST /im/disgroupmem/save', async (ctx, { body }) => {
      await addGroupMembers(ctx, body.groupId, body.personIds);
      return null;
    }),
    route('POST /im/chatrecord/list', async (ctx, { body }) => listRecords(ctx, body)),
    route('POST /im/chatrecord/save', async (ctx, { body }) => saveRecord(ctx, body)),
    route('GET /im/chatrecord/delete/unread', async (ctx, { query }) => {
      await clearUnread(ctx, query.groupId);
      return null;
    }),
    route('GET /im/chatrecord/check/chat/{a}/{b}', async (ctx, { params }) => privateChat(ctx, params.a, params.b)),
  ],
};
