import { ChatRecordType, type ChatSystemLine } from '@pm/shared';
import type { TFunction } from 'i18next';

/** A file message's content: "<path>?name=<name>&size=<bytes>" (shared/src/api/chat.ts). */
export function parseFileContent(content: string): { url: string; name: string; size: number | null } {
  const q = content.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : content.slice(q + 1));
  const size = Number(params.get('size'));
  return {
    url: q < 0 ? content : content.slice(0, q),
    name: params.get('name') || 'file',
    size: Number.isFinite(size) && size > 0 ? size : null,
  };
}

/** 1.2 MB, 340 KB, 12 B. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

export function parseSystemLine(content: string): ChatSystemLine | null {
  try {
    return JSON.parse(content) as ChatSystemLine;
  } catch {
    return null;
  }
}

/** A system line as a sentence in the person's language ("Alex added Pat and Kim"). */
export function systemLineText(t: TFunction, content: string, me: number): string {
  const line = parseSystemLine(content);
  if (!line) return '';
  const who = (p: { personId: number; name: string }) => (p.personId === me ? t('im.system.you') : p.name);
  const names = 'persons' in line ? line.persons.map(who).join(t('im.system.separator')) : '';
  switch (line.event) {
    case 'created':
      return t('im.system.created', { by: who(line.by), names });
    case 'added':
      return t('im.system.added', { by: who(line.by), names });
    case 'removed':
      return t('im.system.removed', { by: who(line.by), names });
    case 'quit':
      return line.newOwner
        ? t('im.system.quitOwner', { by: who(line.by), owner: who(line.newOwner) })
        : t('im.system.quit', { by: who(line.by) });
    case 'renamed':
      return t('im.system.renamed', { by: who(line.by), name: line.groupName });
    case 'dissolved':
      return t('im.system.dissolved', { by: who(line.by) });
    case 'work':
      return t(line.kind === 'complaint' ? 'im.system.complaint' : 'im.system.eventOrder', {
        by: who(line.by),
        code: line.code,
      });
    default:
      return '';
  }
}

/** The last message as the conversation list shows it: text, a placeholder, or the system line. */
export function previewText(t: TFunction, record: { type: number; content: string } | null, me: number): string {
  if (!record) return '';
  switch (record.type) {
    case ChatRecordType.picture:
      return t('messages.chat.picture');
    case ChatRecordType.voice:
      return t('messages.chat.voice');
    case ChatRecordType.file:
      return t('messages.chat.file');
    case ChatRecordType.system:
      return systemLineText(t, record.content, me);
    default:
      return record.content;
  }
}

/** Splits text into plain parts and http(s) links (shown as links, never as HTML). */
export function linkify(text: string): { text: string; href?: string }[] {
  const parts: { text: string; href?: string }[] = [];
  const re = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/gi;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index) });
    parts.push({ text: m[0], href: m[0] });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** A new client id for a message (a UUID where the browser has one). */
export function newClientId(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
