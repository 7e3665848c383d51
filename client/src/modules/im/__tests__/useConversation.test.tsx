import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { LiveEvent } from '@pm/shared';
import type { ChatRecord } from '../../api';
import { emitLiveEvent } from '../../live/utils/liveEvents';

// Issue 31: the open conversation shows every message once, whatever the order of the first
// page's answer, live events and newer fetches, and a failed newer fetch is tried again. The api
// calls are held here and answered in the order each test names.

type Page = { list: ChatRecord[] };
interface Held {
  order: 'asc' | 'desc';
  seq: number | undefined;
  resolve: (p: Page) => void;
  reject: (e: Error) => void;
}
const held: Held[] = [];

vi.mock('../../api', async () => ({
  ApiError: (await import('../../api/ApiError')).ApiError,
  fetchRecords: (_groupId: number, order: 'asc' | 'desc', _limit: number, seq: number | undefined) =>
    new Promise<Page>((resolve, reject) => held.push({ order, seq, resolve, reject })),
  markConversationRead: async () => ({}),
  saveRecord: async () => {
    throw new Error('not in these tests');
  },
  uploadChatFile: async () => '',
  uploadChatPicture: async () => '',
  uploadChatVoice: async () => '',
}));

const { useConversation, newerRetryDelay } = await import('../hooks/useConversation');

const GROUP = 7;
const ME = 1;
const RESIDENT = 2;
const record = (seq: number): ChatRecord => ({
  recordId: 100 + seq,
  groupId: GROUP,
  seq,
  type: 1,
  content: `m${seq}`,
  fromPersonId: RESIDENT,
  fromName: 'Resident',
  fromImages: [],
  clientId: null,
  createdAt: '2026-11-28T08:00:00.000Z',
});
const seqs = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** The newest page as the api answers it (limit 10, descending). */
const firstPage = (last: number): Page => ({
  list: seqs(Math.max(1, last - 9), last)
    .reverse()
    .map(record),
});
const newer = (...s: number[]): Page => ({ list: s.map(record) });

/** The live chat event of a stored message, as the socket hands it over. */
function arrives(seq: number) {
  const r = record(seq);
  act(() =>
    emitLiveEvent({
      topic: 'chat',
      kind: 'message',
      payload: {
        groupId: GROUP,
        groupType: 1,
        recordId: r.recordId,
        seq,
        type: r.type,
        content: r.content,
        clientId: null,
        createdAt: r.createdAt,
        fromUser: { idUser: RESIDENT, userName: r.fromName },
      },
    } as unknown as LiveEvent),
  );
}

/** The next call the hook made (waits for it), to be answered by the test. */
async function nextCall(order: 'asc' | 'desc', seq?: number): Promise<Held> {
  await waitFor(() => expect(held.length).toBeGreaterThan(0), { timeout: 5000 });
  const call = held.shift()!;
  expect({ order: call.order, seq: call.seq }).toEqual({ order, seq });
  return call;
}

function open() {
  return renderHook(() => useConversation(GROUP, ME, { atBottom: () => true }));
}
type View = ReturnType<typeof open>;
const shown = (view: View) => view.result.current.state.records.map((r) => r.seq);

beforeEach(() => {
  held.length = 0;
});
afterEach(cleanup);

describe('useConversation (issue 31)', () => {
  it('when a message arrives before the first page is answered, then it shows once, after the page', async () => {
    const view = open();
    const page = await nextCall('desc', undefined);
    arrives(11);
    expect(view.result.current.state.loading).toBe(true);
    await act(async () => page.resolve(firstPage(10)));
    // The page was read before the message was stored: the newer fetch after it brings it.
    (await nextCall('asc', 10)).resolve(newer(11));
    await waitFor(() => expect(shown(view)).toEqual(seqs(1, 11)));
  });

  it('when the first page already holds the message its event announced early, then it shows once', async () => {
    const view = open();
    const page = await nextCall('desc', undefined);
    arrives(11);
    await act(async () => page.resolve(firstPage(11)));
    (await nextCall('asc', 11)).resolve(newer());
    await waitFor(() => expect(shown(view)).toEqual(seqs(2, 11)));
  });

  it('when a message arrives while the newer fetch after the first page is under way, then it shows once', async () => {
    const view = open();
    await act(async () => (await nextCall('desc', undefined)).resolve(firstPage(10)));
    const fetching = await nextCall('asc', 10);
    arrives(11);
    expect(shown(view)).toEqual(seqs(1, 11));
    await act(async () => fetching.resolve(newer(11)));
    expect(shown(view)).toEqual(seqs(1, 11));
  });

  it('when the newer fetch fails, then it is tried again after a pause and the message shows', async () => {
    const view = open();
    await act(async () => (await nextCall('desc', undefined)).resolve(firstPage(10)));
    // A message with a gap (seq 12 while 10 is the last held) asks for what lies between.
    (await nextCall('asc', 10)).resolve(newer());
    arrives(12);
    expect(shown(view)).toEqual(seqs(1, 10));
    await act(async () => (await nextCall('asc', 10)).reject(new Error('Service Unavailable')));
    expect(shown(view)).toEqual(seqs(1, 10));
    // Without the retry nothing asks again until the next event or reconnect.
    (await nextCall('asc', 10)).resolve(newer(11, 12));
    await waitFor(() => expect(shown(view)).toEqual(seqs(1, 12)));
  });

  it('when the conversation closes while a failed fetch waits to be tried again, then it is not tried', async () => {
    const view = open();
    await act(async () => (await nextCall('desc', undefined)).resolve(firstPage(10)));
    await act(async () => (await nextCall('asc', 10)).reject(new Error('timeout')));
    view.unmount();
    await new Promise((r) => setTimeout(r, newerRetryDelay(0) + 200));
    expect(held).toEqual([]);
  });

  it('when the newer fetch is refused for good (not a member any more), then it is not tried again', async () => {
    const { ApiError } = await import('../../api/ApiError');
    open();
    await act(async () => (await nextCall('desc', undefined)).resolve(firstPage(10)));
    await act(async () => (await nextCall('asc', 10)).reject(new ApiError('Not found', 404)));
    await new Promise((r) => setTimeout(r, newerRetryDelay(0) + 200));
    expect(held).toEqual([]);
  });

  it('the pause before a retry grows from half a second and stops growing at 8 s', () => {
    expect([0, 1, 2, 3, 4, 10].map(newerRetryDelay)).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });
});
