import {
  workFilterInEffect,
  type EndpointKey,
  type WorkDetailData,
  type WorkFilter,
  type WorkRowData,
} from '@pm/shared';
import { WORK_KINDS, type WorkKindName } from '../work-orders/utils/workKinds';
import { call, type CallInput, type CallOptions } from './call';

/**
 * Complaints and event work orders: one set of calls; paths and field names come from the one
 * kind table (work-orders/utils/workKinds.ts, docs/internal-contract.md).
 */
export type { WorkKindName };
const wire = (kind: WorkKindName) => WORK_KINDS[kind].api;

/** A row as both kinds answer it, with id/code/status read into common names (see toWorkRow). */
export interface WorkRow extends WorkRowData {
  id: number;
  code: string;
  status: number;
  type: number | null;
}

export interface WorkDetail extends WorkRow, WorkDetailData {}

export type { WorkFilter };

type Raw = Record<string, unknown>;

/** The declared calls of both kinds under a prefix: `POST /complain/updateDeal` | `POST /eventOrder/updateDeal`. */
type WorkPaths = { base: '/complain' | '/eventOrder'; reply: '/complainReply' | '/eventReply' };
type Prefix = keyof WorkPaths;
type WorkKey<P extends Prefix, S extends string> = Extract<EndpointKey, `POST ${WorkPaths[P]}${S}`>;

/**
 * One call of the kind's (its path from the kind table). The two kinds' bodies differ only in
 * the field names the kind table gives (complainId / eventOrderId …); the api validates them.
 */
function workCall<P extends Prefix, S extends string>(
  kind: WorkKindName,
  prefix: P,
  suffix: S,
  input: Raw,
  options?: CallOptions,
) {
  const key = `POST ${wire(kind)[prefix]}${suffix}` as WorkKey<P, S>;
  return call(key, input as CallInput<WorkKey<P, S>>, options);
}

/** complainId / eventOrderId … → id, code, status. */
function toWorkRow<T extends WorkRow>(kind: WorkKindName, raw: Raw): T {
  const api = wire(kind);
  return {
    ...raw,
    id: raw[api.idField],
    code: raw[api.codeField],
    status: raw[api.statusField],
    type: (raw.type as number | undefined) ?? null,
  } as T;
}

/** The list body: the filters in effect (shared workFilterInEffect), the status under the kind's own field name. */
export function listBody(kind: WorkKindName, page: number, limit: number, f: WorkFilter): Raw {
  const { status, ...rest } = workFilterInEffect(WORK_KINDS[kind], f);
  const body: Raw = { page, limit };
  if (status) body[wire(kind).statusField] = status;
  // Only the filters in effect: one left out is not sent at all.
  for (const [name, value] of Object.entries(rest)) if (value !== undefined) body[name] = value;
  return body;
}

export async function fetchWorkList(
  kind: WorkKindName,
  page: number,
  limit: number,
  f: WorkFilter,
  signal?: AbortSignal,
) {
  const data = await workCall(kind, 'base', '/query/list', listBody(kind, page, limit, f), { signal });
  return { ...data, list: data.list.map((r) => toWorkRow<WorkRow>(kind, r)) };
}

export const fetchWorkTotals = (kind: WorkKindName) =>
  workCall(kind, 'base', `/query/${wire(kind).totals}` as `/query/get${string}StatusTotalVo`, {});

export async function fetchWorkDetail(kind: WorkKindName, id: number, signal?: AbortSignal) {
  return toWorkRow<WorkDetail>(kind, await workCall(kind, 'base', '/query/id/{id}', { id }, { signal }));
}

export async function dealWith(kind: WorkKindName, id: number, dealNote: string, dealImg: string) {
  const body = { [wire(kind).idField]: id, dealNote, ...(dealImg ? { dealImg } : {}) };
  return toWorkRow<WorkDetail>(kind, await workCall(kind, 'base', '/updateDeal', body));
}

export async function completeWork(kind: WorkKindName, id: number, completeNote: string, completeImg: string) {
  const body = { [wire(kind).idField]: id, completeNote, ...(completeImg ? { completeImg } : {}) };
  return toWorkRow<WorkDetail>(kind, await workCall(kind, 'base', '/updateComplete', body));
}

/** One page of a record's replies, oldest first. */
export const fetchReplies = (kind: WorkKindName, id: number, page: number, limit: number, signal?: AbortSignal) =>
  workCall(kind, 'reply', '/query/id/{id}', { id, page, limit }, { signal });

export const saveReply = (kind: WorkKindName, id: number, content: string, img: string) =>
  workCall(kind, 'reply', '/save', { [wire(kind).idField]: id, content, ...(img ? { img } : {}) });

/** The reporter's houses ("more industries", SPEC §3 "Person asset"). */
export const fetchPersonAssets = (personId: number, signal?: AbortSignal) =>
  call('GET /base/personhouse/list/{id}', { id: personId }, { signal });

/** The dashboard's charts of one kind over the last 7 or 30 days of the estate. */
export const fetchWorkStats = (kind: WorkKindName, days: 7 | 30, signal?: AbortSignal) =>
  workCall(kind, 'base', '/query/stats', { days }, { signal });

/** The dashboard's latest unfinished ones (untreated and processing), newest first (listByDashboard). */
export async function fetchDashboardWork(kind: WorkKindName, limit: number, signal?: AbortSignal) {
  const rows = await workCall(kind, 'base', '/query/listByDashboard', { limit }, { signal });
  return rows.map((r) => toWorkRow<WorkRow>(kind, r));
}
