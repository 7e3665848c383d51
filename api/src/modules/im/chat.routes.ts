import { route, type ApiModule } from '../../http/define-route';
import * as book from './address-book.service';
import * as chat from './chat.service';
import { messageToWork } from './chat-to-work.service';

/**
 * Instant messaging (SPEC §7). Staff and residents (DESIGN §5) chat with the same calls: a
 * resident with their own token, staff only with im:list (`staffPermission`); work groups, the
 * address book and its settings are staff's alone (im:list). Every chat call checks that the
 * caller is a current member of the group.
 */
export const chatModule: ApiModule = {
  name: 'chat',
  routes: [
    route('POST /im/disgroup/list', async (ctx, { body }) => chat.listGroups(ctx, body)),
    route('GET /im/disgroup/info/{id}', async (ctx, { params }) => chat.groupInfo(ctx, params.id)),
    route('POST /im/disgroup/chatgroupperson', async (ctx, { body }) => chat.createGroup(ctx, body)),
    route('POST /im/disgroup/save/work/group/member', async (ctx, { body }) => chat.saveWorkGroup(ctx, body)),
    route('POST /im/disgroup/updat/group/name/{groupId}', async (ctx, { params, body }) => {
      await chat.renameGroup(ctx, params.groupId, body.groupName);
      return null;
    }),
    route('GET /im/disgroup/dismiss/{id}', async (ctx, { params }) => {
      await chat.dissolveGroup(ctx, params.id);
      return null;
    }),
    route('POST /im/disgroupmem/list/{id}', async (ctx, { params }) => chat.groupMembers(ctx, params.id)),
    route('POST /im/disgroupmem/quit/disgroup/{id}', async (ctx, { params }) => {
      await chat.quitGroup(ctx, params.id);
      return null;
    }),
    route('POST /im/disgroupmem/save', async (ctx, { body }) => {
      await chat.addGroupMembers(ctx, body.groupId, body.personIds);
      return null;
    }),
    route('POST /im/disgroupmem/remove', async (ctx, { body }) => {
      await chat.removeGroupMembers(ctx, body.groupId, body.personIds);
      return null;
    }),
    route('POST /im/chatrecord/list', async (ctx, { body }) => chat.listRecords(ctx, body)),
    route('POST /im/chatrecord/save', async (ctx, { body }) => chat.saveRecord(ctx, body)),
    route('GET /im/chatrecord/delete/unread', async (ctx, { query }) => {
      await chat.clearUnread(ctx, query.groupId);
      return null;
    }),
    route('GET /im/chatrecord/check/chat/{a}/{b}', async (ctx, { params }) =>
      chat.privateChat(ctx, params.a, params.b),
    ),
    route('POST /im/chatrecord/to/work', async (ctx, { body }) => messageToWork(ctx, body)),
    route('GET /im/chat/resident/{id}', async (ctx, { params }) => book.residentContext(ctx, params.id)),
    route('POST /im/addressbook/staff', async (ctx, { body }) => book.staffDirectory(ctx, body)),
    route('POST /im/addressbook/residents', async (ctx, { body }) => book.residentDirectory(ctx, body)),
    route('GET /im/addressbook/settings', async (ctx) => book.bookSettings(ctx)),
    route('POST /im/addressbook/settings/save', async (ctx, { body }) => book.saveBookSettings(ctx, body)),
    route('GET /app/addressbook', async (ctx) => book.residentBook(ctx)),
  ],
};
