import { afterEach, describe, expect, it, vi } from 'vitest';
import { call } from '../call';

/** The network boundary: records what `call` sends and answers a code-200 envelope. */
function recordRequests(data: unknown = null) {
  const sent: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({ url, method: String(init.method), body: init.body });
    return new Response(JSON.stringify({ code: 200, msg: 'ok', data }), { status: 200 });
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe('call', () => {
  it('when a GET has path parameters, then they are filled in and nothing else is sent', async () => {
    const sent = recordRequests({ accountInfo: { accId: 1, personId: 2, username: 'a' } });
    const info = await call('GET /account/info/{id}', { id: 7 });
    expect(sent).toEqual([{ url: '/api/account/info/7', method: 'GET', body: undefined }]);
    expect(info).toEqual({ accountInfo: { accId: 1, personId: 2, username: 'a' } });
  });

  it('when a GET has a query, then the rest of the input becomes the query string', async () => {
    const sent = recordRequests();
    await call('GET /im/chatrecord/delete/unread', { groupId: 12 });
    expect(sent[0].url).toBe('/api/im/chatrecord/delete/unread?groupId=12');
  });

  it('when a POST has path parameters and a body, then the parameters leave the body', async () => {
    const sent = recordRequests({ list: [], total: 0 });
    await call('POST /complainReply/query/id/{id}', { id: 'a/b', page: 2, limit: 5 });
    expect(sent[0]).toEqual({
      url: '/api/complainReply/query/id/a%2Fb',
      method: 'POST',
      body: JSON.stringify({ page: 2, limit: 5 }),
    });
  });

  it('when a multipart body is given as a form, then it is sent as it is', async () => {
    const sent = recordRequests({ originalImagePath: '/upload/files/x.png', thumbnailPath: null });
    const form = new FormData();
    await call('POST /upload/uploadimage/{kind}', { kind: 'user' }, { form });
    expect(sent[0]).toEqual({ url: '/api/upload/uploadimage/user', method: 'POST', body: form });
  });
});
