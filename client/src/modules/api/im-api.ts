import type {
  AddressBookSettings,
  ChatGroupInfo,
  ChatGroupRow,
  ChatPerson,
  ChatRecord,
  ListPage,
  ResidentContext,
  ResidentEntry,
  StaffDirectory,
  StaffEntry,
} from '@pm/shared';
import { call, type CallInput } from './call';

export type {
  AddressBookSettings,
  ChatGroupInfo,
  ChatGroupRow,
  ChatPerson,
  ChatRecord,
  ResidentContext,
  ResidentEntry,
  StaffDirectory,
  StaffEntry,
};

/** SPEC §7: the chat list is fetched with a key, limit 1000, page 1. */
export const fetchConversations = (key: string, pinyin: boolean, signal?: AbortSignal) =>
  call('POST /im/disgroup/list', { page: 1, limit: 1000, key: key || undefined, pinyin }, { signal, silent: true });
export const fetchGroupInfo = (id: number, signal?: AbortSignal) =>
  call('GET /im/disgroup/info/{id}', { id }, { signal, silent: true });
export const fetchGroupMembers = (id: number) => call('POST /im/disgroupmem/list/{id}', { id });

/** SPEC §7 record paging: older pages (desc, before seq) and newer ones (asc, after seq). */
export const fetchRecords = (
  groupId: number,
  order: 'asc' | 'desc',
  limit: number,
  seq: number | undefined,
  signal?: AbortSignal,
) => call('POST /im/chatrecord/list', { groupId, page: 1, limit, order, sidx: 'seq', seq }, { signal, silent: true });

/** Sends one message; silent: the conversation shows a failed send in place, with a resend. */
export const saveRecord = (body: CallInput<'POST /im/chatrecord/save'>) =>
  call('POST /im/chatrecord/save', body, { silent: true });
export const markConversationRead = (groupId: number) =>
  call('GET /im/chatrecord/delete/unread', { groupId }, { silent: true });
export const openPrivateChat = (me: number, other: number) =>
  call('GET /im/chatrecord/check/chat/{a}/{b}', { a: me, b: other });

export const createGroup = (groupName: string, personIds: number[]) =>
  call('POST /im/disgroup/chatgroupperson', { groupName, personIds });
export const renameGroup = (groupId: number, groupName: string) =>
  call('POST /im/disgroup/updat/group/name/{groupId}', { groupId, groupName });
export const addMembers = (groupId: number, personIds: number[]) =>
  call('POST /im/disgroupmem/save', { groupId, personIds });
export const removeMembers = (groupId: number, personIds: number[]) =>
  call('POST /im/disgroupmem/remove', { groupId, personIds });
export const leaveGroup = (id: number) => call('POST /im/disgroupmem/quit/disgroup/{id}', { id });
export const dissolveGroup = (id: number) => call('GET /im/disgroup/dismiss/{id}', { id });

export const fetchResidentContext = (id: number, signal?: AbortSignal) =>
  call('GET /im/chat/resident/{id}', { id }, { signal, silent: true });
export const messageToWork = (body: CallInput<'POST /im/chatrecord/to/work'>) =>
  call('POST /im/chatrecord/to/work', body);

export const fetchStaffDirectory = (key: string, pinyin: boolean, signal?: AbortSignal) =>
  call('POST /im/addressbook/staff', { key: key || undefined, pinyin }, { signal });
export const fetchResidentDirectory = (
  page: number,
  limit: number,
  key: string,
  pinyin: boolean,
  houseType: number | undefined,
  signal?: AbortSignal,
) =>
  call(
    'POST /im/addressbook/residents',
    { page, limit, key: key || undefined, pinyin, houseType },
    { signal },
  ) as Promise<ListPage<ResidentEntry>>;
export const fetchBookSettings = (signal?: AbortSignal) => call('GET /im/addressbook/settings', {}, { signal });
export const saveBookSettings = (body: CallInput<'POST /im/addressbook/settings/save'>) =>
  call('POST /im/addressbook/settings/save', body);

/** The chat's uploads: a picture, a file, a voice message (multipart field `file`). */
export async function uploadChatPicture(file: Blob, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', file, name);
  return (await call('POST /upload/uploadimage/{kind}', { kind: 'chat' }, { form, silent: true })).originalImagePath;
}
export async function uploadChatFile(file: Blob, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', file, name);
  const f = await call('POST /upload/uploadfile/{kind}', { kind: 'chat' }, { form, silent: true });
  return `${f.filePath}?name=${encodeURIComponent(f.fileName || name)}&size=${f.size}`;
}
export async function uploadChatVoice(file: Blob, seconds: number): Promise<string> {
  const form = new FormData();
  form.append('file', file, 'voice.webm');
  form.append('duration', String(seconds));
  return (await call('POST /upload/uploadvoice/{kind}', { kind: 'chat' }, { form, silent: true })).voicePath;
}
