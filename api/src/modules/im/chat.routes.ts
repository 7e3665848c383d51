import { z } from 'zod';
import {
  ChatGroupCreateSchema,
  ChatGroupListSchema,
  ChatGroupRenameSchema,
  ChatGroupRowSchema,
  ChatMembersAddSchema,
  ChatPersonSchema,
  ChatRecordListSchema,
  ChatRecordPageSchema,
  ChatRecordSaveSchema,
  ChatUnreadQuerySchema,
  GroupIdParamsSchema,
  IdParamsSchema,
  listPageSchema,
  PrivateChatAnswerSchema,
  PrivateChatParamsSchema,
  WorkGroupSaveSchema,
} from '@pm/shared';
import { defineRoute, type ApiModule } from '../../http/define-route';
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
    defineRoute({
      method: 'post',
      path: '/im/disgroup/list',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary:
        "The caller's chats (private and group), newest activity first, with unread count, last record and members; key filters on group or member name",
      body: ChatGroupListSchema,
      response: listPageSchema(ChatGroupRowSchema),
      handler: async (ctx, { body }) => listGroups(ctx, body),
    }),
    defineRoute({
      method: 'get',
      path: '/im/disgroup/info/:id',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary: 'One chat the caller is in, with its members',
      params: IdParamsSchema,
      handler: async (ctx, { params }) => groupInfo(ctx, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/im/disgroup/chatgroupperson',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary: 'Creates a group chat of the caller and personIds (persons of the estate); every member gets event 3200',
      body: ChatGroupCreateSchema,
      response: z.object({ groupId: z.number() }),
      handler: async (ctx, { body }) => createGroup(ctx, body),
    }),
    defineRoute({
      method: 'post',
      path: '/im/disgroup/save/work/group/member',
      permission: 'im:list',
      summary:
        'Creates a staff work group (no groupId) or sets its name and members; added members get event 4, removed ones 5',
      body: WorkGroupSaveSchema,
      response: z.object({ groupId: z.number() }),
      handler: async (ctx, { body }) => saveWorkGroup(ctx, body),
    }),
    defineRoute({
      method: 'post',
      path: '/im/disgroup/updat/group/name/:groupId',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary: 'Renames a group chat (owner only; the path keeps SPEC\'s spelling "updat")',
      params: GroupIdParamsSchema,
      body: ChatGroupRenameSchema,
      handler: async (ctx, { params, body }) => {
        await renameGroup(ctx, params.groupId, body.groupName);
        return null;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/im/disgroup/dismiss/:id',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary: 'Dissolves a group chat (owner only); every member gets event 6',
      params: IdParamsSchema,
      handler: async (ctx, { params }) => {
        await dissolveGroup(ctx, params.id);
        return null;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/im/disgroupmem/list/:id',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary: 'Current members of a chat the caller is in',
      params: IdParamsSchema,
      response: z.array(ChatPersonSchema),
      handler: async (ctx, { params }) => groupMembers(ctx, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/im/disgroupmem/quit/disgroup/:id',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary:
        'The caller leaves a group chat (event 5); an owner hands it to the longest member, the last one out dissolves it',
      params: IdParamsSchema,
      handler: async (ctx, { params }) => {
        await quitGroup(ctx, params.id);
        return null;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/im/disgroupmem/save',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary: 'Adds persons of the estate to a group chat the caller is in (event 4)',
      body: ChatMembersAddSchema,
      handler: async (ctx, { body }) => {
        await addGroupMembers(ctx, body.groupId, body.personIds);
        return null;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/im/chatrecord/list',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary:
        'Records of a chat by seq: order desc pages back from seq (older), asc forward after seq (newer); answers list, total, totalPage',
      body: ChatRecordListSchema,
      response: ChatRecordPageSchema,
      handler: async (ctx, { body }) => listRecords(ctx, body),
    }),
    defineRoute({
      method: 'post',
      path: '/im/chatrecord/save',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary:
        'Sends a record (type 1 text, 2 picture, 4 voice "<path>?<seconds>", 5 file): next seq, unread +1 for the others, event 1 (private) or 3 (group) to every member',
      body: ChatRecordSaveSchema,
      response: z.object({ recordId: z.number(), groupId: z.number(), seq: z.number(), createdAt: z.string() }),
      handler: async (ctx, { body }) => saveRecord(ctx, body),
    }),
    defineRoute({
      method: 'get',
      path: '/im/chatrecord/delete/unread',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary: 'Marks a chat read for the caller (?groupId=)',
      query: ChatUnreadQuerySchema,
      handler: async (ctx, { query }) => {
        await clearUnread(ctx, query.groupId);
        return null;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/im/chatrecord/check/chat/:a/:b',
      permission: 'authenticated',
      staffPermission: 'im:list',
      summary:
        'The private chat of the caller (a) and person b of the estate, created on first use (both get event 3100)',
      params: PrivateChatParamsSchema,
      response: PrivateChatAnswerSchema,
      handler: async (ctx, { params }) => privateChat(ctx, params.a, params.b),
    }),
  ],
};
