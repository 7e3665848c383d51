import type { ListPage, PersonAsset, Reply } from '@pm/shared';
import { get, post } from './http';

/** Complaints and event work orders: one set of calls, two path prefixes (docs/internal-contract.md). */
export type WorkKindName = 'complaint' | 'eventOrder';

const PATHS: Record<WorkKindName, { base: string; reply: string; totals: string; id: string }> = {
  complaint: { base: '/complain', reply: '/complainReply', totals: 'getComplainStatusTotalVo', id: 'complainId' },
  eventOrder: { base: '/eventOrder', reply: '/eventReply', totals: 'getEventOrderStatusTotalVo', id: 'eventOrderId' },
};

/** A row as both kinds answer it, with id/code/status read into common names (see toWorkRow). */
export interface WorkRow {
  id: number;
  code: string;
  status: number;
  type: number | null;
  name: string;
  reportPersonId: number;
  reportPersonName: string;
  reportPersonPhoto: string | null;
  personType: number;
  personIdentity: number | null;
  unitName: string | null;
  floorName: string | null;
  buildName: string | null;
  carParkCode: string | null;
  shopCode: string | null;
  reportTime: string;
}

export interface WorkDetail extends WorkRow {
  note: string;
  img: string | null;
  voice: string | null;
  personDealName: string | null;
  personDealPhoto: string | null;
  dealTime: string | null;
  dealNote: string | null;
  dealImg: string | null;
  personCompleteName: string | null;
  personCompletePhoto: string | null;
  completeTime: string | null;
  completeNote: string | null;
  completeImg: string | null;
  serviceComment: string | null;
  serviceEfficiency: number | null;
  serviceAttitude: number | null;
  serviceProcess: number | null;
  replyCount: number;
}

export interface WorkFilter {
  status?: number;
  type?: number;
  keyword?: string;
  startTime?: string;
  endTime?: string;
  houseType?: number;
}

type Raw = Record<string, unknown>;

/** complainId / eventOrderId … → id, code, status. */
function toWorkRow<T extends WorkRow>(kind: WorkKindName, raw: Raw): T {
  const c = kind === 'complaint';
  return {
    ...raw,
    id: raw[c ? 'complainId' : 'eventOrderId'],
    code: raw[c ? 'complainCode' : 'eventCode'],
    status: raw[c ? 'complainStatus' : 'eventStatus'],
    type: (raw.type as number | undefined) ?? null,
  } as T;
}

/** The list body: the status goes under the kind's own field name. */
export function listBody(kind: WorkKindName, page: number, limit: number, f: WorkFilter): Raw {
  const body: Raw = { page, limit };
  if (f.status) body[kind === 'complaint' ? 'complainStatus' : 'eventStatus'] = f.status;
  if (f.type && kind === 'eventOrder') body.type = f.type;
  if (f.keyword?.trim()) body.keyword = f.keyword.trim();
  if (f.startTime) body.startTime = f.startTime;
  if (f.endTime) body.endTime = f.endTime;
  if (f.houseType) body.houseType = f.houseType;
  return body;
}

export async function fetchWorkList(
  kind: WorkKindName,
  page: number,
  limit: number,
  f: WorkFilter,
  signal?: AbortSignal,
) {
  const data = await post<ListPage<Raw>>(`${PATHS[kind].base}/query/list`, listBody(kind, page, limit, f), { signal });
  return { ...data, list: data.list.map((r) => toWorkRow<WorkRow>(kind, r)) };
}

export const fetchWorkTotals = (kind: WorkKindName) =>
  post<{ untreated: number; processing: number; completed: number }>(
    `${PATHS[kind].base}/query/${PATHS[kind].totals}`,
    {},
  );

export async function fetchWorkDetail(kind: WorkKindName, id: number, signal?: AbortSignal) {
  return toWorkRow<WorkDetail>(kind, await post<Raw>(`${PATHS[kind].base}/query/id/${id}`, {}, { signal }));
}

export async function dealWith(kind: WorkKindName, id: number, dealNote: string, dealImg: string) {
  const body = { [PATHS[kind].id]: id, dealNote, ...(dealImg ? { dealImg } : {}) };
  return toWorkRow<WorkDetail>(kind, await post<Raw>(`${PATHS[kind].base}/updateDeal`, body, { notify: true }));
}

export async function completeWork(kind: WorkKindName, id: number, completeNote: string, completeImg: string) {
  const body = { [PATHS[kind].id]: id, completeNote, ...(completeImg ? { completeImg } : {}) };
  return toWorkRow<WorkDetail>(kind, await post<Raw>(`${PATHS[kind].base}/updateComplete`, body, { notify: true }));
}

export const fetchReplies = (kind: WorkKindName, id: number, signal?: AbortSignal) =>
  post<{ list: Reply[]; total: number }>(`${PATHS[kind].reply}/query/id/${id}`, { page: 1, limit: 100 }, { signal });

export const saveReply = (kind: WorkKindName, id: number, content: string, img: string) =>
  post<Reply>(`${PATHS[kind].reply}/save`, { [PATHS[kind].id]: id, content, ...(img ? { img } : {}) });

/** The reporter's houses ("more industries", SPEC §3 "Person asset"). */
export const fetchPersonAssets = (personId: number, signal?: AbortSignal) =>
  get<PersonAsset[]>(`/base/personhouse/list/${personId}`, { signal });
