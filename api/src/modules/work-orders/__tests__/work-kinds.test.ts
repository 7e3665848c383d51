import { getTableColumns, getTableName } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  COMPLAINT,
  ChannelType,
  EVENT_ORDER,
  MessageType,
  PERMISSIONS,
  WORK_KIND_LIST,
  WORK_KINDS,
  workKindOfChannel,
  type WorkKind,
} from '@pm/shared';
import { complain, complainReply, eventOrder, eventReply } from '../../../db/schema';

/** The kind table names tables and columns the repository splices into SQL: they must exist. */
const TABLES = {
  complaint: { table: complain, replyTable: complainReply },
  eventOrder: { table: eventOrder, replyTable: eventReply },
};

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const columnsOf = (table: Parameters<typeof getTableColumns>[0]) => Object.keys(getTableColumns(table)).map(snake);

describe.each(WORK_KIND_LIST.map((k) => [k.kind, k] as [string, WorkKind]))('the %s kind', (name, k) => {
  it('when its SQL names are read, then they are the schema tables and columns', () => {
    const { table, replyTable } = TABLES[k.kind];
    expect(getTableName(table)).toBe(k.sql.table);
    expect(getTableName(replyTable)).toBe(k.sql.replyTable);
    expect(columnsOf(table)).toEqual(expect.arrayContaining([k.sql.codeColumn, k.sql.statusColumn]));
    expect(columnsOf(replyTable)).toContain(k.sql.replyForeignKey);
    expect(columnsOf(table).includes('type')).toBe(k.hasType);
  });

  it('when its permissions and channel are read, then they are known codes and lead back to it', () => {
    for (const p of Object.values(k.perms)) expect(PERMISSIONS).toContain(p);
    expect(workKindOfChannel(k.channel)).toBe(k);
    expect(WORK_KINDS[k.kind]).toBe(k);
    expect(name).toBe(k.kind);
  });
});

it('when the two kinds are compared, then no name, path, message or counter is shared', () => {
  const [a, b] = WORK_KIND_LIST;
  for (const field of [
    'path',
    'replyPath',
    'residentPath',
    'idField',
    'codePrefix',
    'uploadKind',
    'totalsKey',
  ] as const)
    expect(a[field]).not.toBe(b[field]);
  expect(a.channel).not.toBe(b.channel);
  expect(new Set([a.newMessage, a.replyMessage, b.newMessage, b.replyMessage]).size).toBe(4);
});

it('when the numbers of each kind are read, then they are the named channel and message types', () => {
  expect([COMPLAINT.channel, COMPLAINT.newMessage, COMPLAINT.replyMessage]).toEqual([
    ChannelType.complaint,
    MessageType.newComplaint,
    MessageType.complaintReply,
  ]);
  expect([EVENT_ORDER.channel, EVENT_ORDER.newMessage, EVENT_ORDER.replyMessage]).toEqual([
    ChannelType.eventOrder,
    MessageType.newEventOrder,
    MessageType.eventReply,
  ]);
});
