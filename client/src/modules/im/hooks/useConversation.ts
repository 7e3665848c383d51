import { useCallback, useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { CHAT_NEWER_PAGE, CHAT_OLDER_PAGE, ChatRecordType, type LiveEvent } from '@pm/shared';
import {
  ApiError,
  fetchRecords,
  markConversationRead,
  saveRecord,
  uploadChatFile,
  uploadChatPicture,
  uploadChatVoice,
  type ChatRecord,
} from '../../api';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { liveState } from '../../live/states/liveState';
import { newClientId } from '../utils/chatContent';

/** What a message to send is: text, or a file to upload first (picture, file, voice of `seconds`). */
export type Outgoing =
  | { type: 1; text: string }
  | { type: 2; file: Blob; name: string }
  | { type: 5; file: Blob; name: string }
  | { type: 4; file: Blob; seconds: number };

/** A message this tab is sending: shown at once as "sending", then swapped for the stored record. */
export interface PendingMessage {
  clientId: string;
  outgoing: Outgoing;
  /** The uploaded content once the upload succeeded (a resend does not upload again). */
  content?: string;
  status: 'sending' | 'failed';
  error?: string;
  createdAt: string;
  /** A local preview of a picture. */
  previewUrl?: string;
}

export interface ConversationState {
  records: ChatRecord[];
  pending: PendingMessage[];
  loading: boolean;
  failed: boolean;
  hasOlder: boolean;
  /** The group was dissolved or the person removed while it was open: read-only. */
  closed: 'dissolved' | 'removed' | null;
  /** Messages from others that arrived while the person was not at the bottom. */
  unseen: number;
}

const EMPTY: ConversationState = {
  records: [],
  pending: [],
  loading: true,
  failed: false,
  hasOlder: false,
  closed: null,
  unseen: 0,
};

/** Records merged by seq (no duplicate, whatever the order of pages, events and answers), ascending. */
export function mergeRecords(current: ChatRecord[], incoming: ChatRecord[]): ChatRecord[] {
  if (incoming.length === 0) return current;
  const bySeq = new Map(current.map((r) => [r.seq, r]));
  for (const r of incoming) bySeq.set(r.seq, r);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** The record a live chat event carries (issue 31 pushes the stored record's fields). */
function recordOf(e: LiveEvent & { topic: 'chat' }): ChatRecord | null {
  const p = e.payload;
  if (!p.groupId || !p.seq || !p.recordId || p.type === undefined || p.content === undefined || !p.createdAt)
    return null;
  return {
    recordId: p.recordId,
    groupId: p.groupId,
    seq: p.seq,
    type: p.type,
    content: p.content,
    fromPersonId: p.fromUser?.idUser ?? 0,
    fromName: p.fromUser?.userName ?? '',
    fromImages: p.fromAvatar ? [{ url: p.fromAvatar }] : [],
    clientId: p.clientId ?? null,
    createdAt: p.createdAt,
  };
}

/**
 * The newest page of a conversation asked for at the click that opens it (the conversation
 * list's row), before the route change has rendered: the view takes it instead of asking again.
 * One request per click, taken once and only within a few seconds (not a cache: what is taken is
 * the same answer the view would have asked for a moment later; what arrives after it is fetched
 * after its last seq, as for any first page).
 */
const opening = new Map<number, { at: number; page: ReturnType<typeof fetchRecords> }>();
const OPENING_KEPT_MS = 3000;

export function startOpening(groupId: number): void {
  const page = fetchRecords(groupId, 'desc', CHAT_OLDER_PAGE, undefined);
  page.catch(() => {});
  opening.set(groupId, { at: Date.now(), page });
}

function firstPage(groupId: number, signal: AbortSignal): ReturnType<typeof fetchRecords> {
  const started = opening.get(groupId);
  opening.delete(groupId);
  if (started && Date.now() - started.at < OPENING_KEPT_MS) return started.page;
  return fetchRecords(groupId, 'desc', CHAT_OLDER_PAGE, undefined, signal);
}

/**
 * The pause before retry `n` (0, 1, …) of a newer-records fetch that failed (a timeout, a 503 from
 * a busy gateway, the api restarting): 0.5 s doubling to 8 s. Dropping it instead left a message
 * out of the open conversation until the next event or reconnect (issue 31).
 */
export const newerRetryDelay = (n: number) => Math.min(8000, 500 * 2 ** n);

/** A failure that may pass: the network, a timeout (status 0), the api or gateway busy or down (429, 5xx). */
const mayPass = (err: unknown) =>
  !(err instanceof ApiError) || err.status === 0 || err.status === 429 || err.status >= 500;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A send that failed because of the network, a timeout or the api (not the message itself). */
const failureText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * One open conversation (SPEC §7 "Chat record list"): the newest 10 on opening, 10 older at a
 * time when scrolled up, newer ones 5 at a time after the last seq held (deduplicated by seq)
 * whenever a live event leaves a gap and after every reconnect; sending with a client id, shown
 * at once and swapped for the stored record; failed sends stay with a resend.
 */
export function useConversation(
  groupId: number | null,
  me: number,
  options: { atBottom: () => boolean; onOwnRecord?: () => void },
) {
  const [state, setState] = useState<ConversationState>(EMPTY);
  const current = useRef(state);
  const group = useRef(groupId);
  group.current = groupId;
  const newerChain = useRef<Promise<void>>(Promise.resolve());
  const olderBusy = useRef(false);
  const readTimer = useRef<ReturnType<typeof setTimeout>>();
  const { snapshots } = useSnapshot(liveState);

  // Every change goes through here and is applied to `current` at once, so async steps (a fetch
  // that just finished, an event) always see the latest state, not the last render's.
  const update = useCallback((change: (s: ConversationState) => ConversationState) => {
    const next = change(current.current);
    if (next === current.current) return;
    current.current = next;
    setState(next);
  }, []);

  /** Marks it read (debounced): the open conversation's unread is cleared (SPEC §7). */
  const markRead = useCallback((id: number) => {
    clearTimeout(readTimer.current);
    readTimer.current = setTimeout(() => {
      if (group.current === id && document.visibilityState !== 'hidden') void markConversationRead(id).catch(() => {});
    }, 250);
  }, []);

  /**
   * Everything after the last seq held, 5 at a time, one fetch chain at once; a failed fetch is
   * tried again after a growing pause while the conversation stays open.
   */
  const fetchNewer = useCallback(() => {
    const id = group.current;
    if (!id) return Promise.resolve();
    newerChain.current = newerChain.current.then(async () => {
      let failures = 0;
      for (let pages = 0; pages < 1000;) {
        // Before the first page there is no last seq to go on from (it would read from the start).
        if (group.current !== id || current.current.loading) return;
        // Read at each step: an event may have added the next records meanwhile.
        const last = current.current.records.at(-1)?.seq ?? 0;
        let refused: unknown = null;
        const page = await fetchRecords(id, 'asc', CHAT_NEWER_PAGE, last).catch((err: unknown) => {
          refused = err;
          return null;
        });
        if (group.current !== id) return;
        if (!page) {
          // Not a member any more, or a bad request: asking again would get the same answer.
          if (!mayPass(refused)) return;
          await sleep(newerRetryDelay(failures++));
          continue;
        }
        failures = 0;
        pages++;
        update((s) => ({ ...s, records: mergeRecords(s.records, page.list) }));
        if (page.list.length < CHAT_NEWER_PAGE) return;
      }
    });
    return newerChain.current;
  }, [update]);

  // Opening: the newest page. Closing (another group, or the view gone) stops any newer fetch's retries.
  useEffect(() => {
    group.current = groupId;
    setState(EMPTY);
    current.current = EMPTY;
    if (!groupId) return;
    const abort = new AbortController();
    firstPage(groupId, abort.signal).then(
      (page) => {
        if (abort.signal.aborted) return;
        const records = mergeRecords([], page.list);
        update((s) => ({ ...s, loading: false, records, hasOlder: (records[0]?.seq ?? 1) > 1 }));
        markRead(groupId);
        // Whatever arrived between the page and now.
        void fetchNewer();
      },
      () => !abort.signal.aborted && update((s) => ({ ...s, loading: false, failed: true })),
    );
    return () => {
      abort.abort();
      group.current = null;
    };
  }, [groupId, update, markRead, fetchNewer]);

  // A reconnect (every new snapshot) fetches what came after the last seq held: no gap.
  const firstSnapshots = useRef(snapshots);
  useEffect(() => {
    if (snapshots !== firstSnapshots.current && !current.current.loading) void fetchNewer();
  }, [snapshots, fetchNewer]);

  /** 10 older records before the first held; answers how many were added (the list keeps its position). */
  const loadOlder = useCallback(async (): Promise<number> => {
    const id = group.current;
    const s = current.current;
    if (!id || olderBusy.current || !s.hasOlder || s.records.length === 0) return 0;
    olderBusy.current = true;
    try {
      const page = await fetchRecords(id, 'desc', CHAT_OLDER_PAGE, s.records[0].seq);
      if (group.current !== id) return 0;
      const before = current.current.records.length;
      update((x) => {
        const records = mergeRecords(x.records, page.list);
        return { ...x, records, hasOlder: (records[0]?.seq ?? 1) > 1 && page.list.length > 0 };
      });
      return current.current.records.length - before;
    } catch {
      return 0;
    } finally {
      olderBusy.current = false;
    }
  }, [update]);

  useLiveEvent((e) => {
    if (e.topic !== 'chat' || !groupId || e.payload.groupId !== groupId) return;
    if (e.kind === 'read') return;
    if (e.kind === 'groupDissolved') update((s) => ({ ...s, closed: 'dissolved' }));
    if (e.kind === 'memberRemoved' && e.payload.personIds?.includes(me)) update((s) => ({ ...s, closed: 'removed' }));
    const record = recordOf(e);
    // Still opening: the first page, and the newer fetch after it, will hold it.
    if (!record || current.current.loading) return;
    const last = current.current.records.at(-1)?.seq ?? 0;
    const fromOther = record.fromPersonId !== me && record.type !== ChatRecordType.system;
    update((s) => ({
      ...s,
      // Next in line: shown from the event; anything else is fetched after the last seq held.
      records:
        record.seq === last + 1 || s.records.some((r) => r.seq === record.seq)
          ? mergeRecords(s.records, [record])
          : s.records,
      pending: record.clientId ? s.pending.filter((p) => p.clientId !== record.clientId) : s.pending,
      unseen: fromOther && !options.atBottom() ? s.unseen + 1 : s.unseen,
    }));
    if (record.seq > last + 1) void fetchNewer();
    if (fromOther) markRead(groupId);
    // The person's own message or action (from any tab): show it, wherever they had scrolled.
    else if (record.fromPersonId === me) options.onOwnRecord?.();
  });

  const sendPending = useCallback(
    async (p: PendingMessage) => {
      const id = group.current;
      if (!id) return;
      const o = p.outgoing;
      try {
        let content = p.content;
        if (content === undefined) {
          content =
            o.type === 1
              ? o.text
              : o.type === 2
                ? await uploadChatPicture(o.file, o.name)
                : o.type === 5
                  ? await uploadChatFile(o.file, o.name)
                  : await uploadChatVoice(o.file, o.seconds);
          update((s) => ({ ...s, pending: s.pending.map((x) => (x.clientId === p.clientId ? { ...x, content } : x)) }));
        }
        const stored = await saveRecord({ groupId: id, type: o.type, content, clientId: p.clientId });
        if (p.previewUrl) URL.revokeObjectURL(p.previewUrl);
        if (group.current !== id) return;
        update((s) => ({
          ...s,
          records: mergeRecords(s.records, [stored]),
          pending: s.pending.filter((x) => x.clientId !== p.clientId),
        }));
        // Anything sent meanwhile by others (the stored seq may be past the last one held).
        void fetchNewer();
      } catch (err) {
        update((s) => ({
          ...s,
          pending: s.pending.map((x) =>
            x.clientId === p.clientId ? { ...x, status: 'failed', error: failureText(err) } : x,
          ),
        }));
      }
    },
    [update, fetchNewer],
  );

  const send = useCallback(
    (outgoing: Outgoing) => {
      const p: PendingMessage = {
        clientId: newClientId(),
        outgoing,
        status: 'sending',
        createdAt: new Date().toISOString(),
        previewUrl: outgoing.type === 2 ? URL.createObjectURL(outgoing.file) : undefined,
      };
      update((s) => ({ ...s, pending: [...s.pending, p] }));
      options.onOwnRecord?.();
      void sendPending(p);
    },
    [update, sendPending, options],
  );

  /** SPEC §4 resend: the same client id, so a send that did reach the api is not stored twice. */
  const resend = useCallback(
    (clientId: string) => {
      const p = current.current.pending.find((x) => x.clientId === clientId);
      if (!p) return;
      const again = { ...p, status: 'sending' as const, error: undefined };
      update((s) => ({ ...s, pending: s.pending.map((x) => (x.clientId === clientId ? again : x)) }));
      void sendPending(again);
    },
    [update, sendPending],
  );

  const discard = useCallback(
    (clientId: string) => update((s) => ({ ...s, pending: s.pending.filter((x) => x.clientId !== clientId) })),
    [update],
  );
  const clearUnseen = useCallback(() => update((s) => (s.unseen ? { ...s, unseen: 0 } : s)), [update]);

  return { state, loadOlder, fetchNewer, send, resend, discard, clearUnseen };
}
