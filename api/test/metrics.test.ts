// The api's Prometheus metrics (issue 17), on a port of their own: request durations by declared
// route, database query time (and the pool on PostgreSQL), real-time connections and push latency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRealtime, signIn, startTestApi, testEngines, type TestApi } from './kit';

/** Sum of a metric's samples whose labels contain every one of `labels`. */
async function sample(url: string, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const text = await (await fetch(url)).text();
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    if (!Object.entries(labels).every(([k, v]) => (m[2] ?? '').includes(`${k}="${v}"`))) continue;
    sum = (sum ?? 0) + Number(m[3]);
  }
  return sum;
}

describe.each(testEngines())('api metrics on %s', (engine) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi(engine, { metricsPort: 0 });
  });
  afterAll(async () => api?.close());

  it('when the api serves its metrics, then they are on their own loopback port and not on the api port', async () => {
    expect(api.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(api.metricsUrl!).port).not.toBe(String(api.port));
    const res = await fetch(api.metricsUrl!);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toContain('# TYPE api_http_request_duration_seconds histogram');
    // The gateway exposes the api port under /api: metrics must not be reachable there.
    const onApiPort = await api.http.get('/metrics');
    expect(onApiPort.status).toBe(404);
    expect(onApiPort.text).not.toContain('api_http_request_duration_seconds');
  });

  it('when calls are made, then their durations are counted by declared route, method and status, and queries are timed', async () => {
    const staff = await signIn(api, 'staff');
    for (let i = 0; i < 3; i++) expect((await staff.get(`/account/info/${staff.accId}`)).status).toBe(200);
    const url = api.metricsUrl!;
    const unmatched = () => sample(url, 'api_http_request_duration_seconds_count', { route: '(none)', status: '404' });
    const before = (await unmatched()) ?? 0;
    await api.http.get('/no/such/route');

    expect(
      await sample(url, 'api_http_request_duration_seconds_count', {
        route: '/account/info/:id',
        method: 'GET',
        status: '200',
      }),
    ).toBe(3);
    expect(await unmatched()).toBe(before + 1);
    expect(await sample(url, 'api_db_query_duration_seconds_count', { engine })).toBeGreaterThan(3);
    const pool = await sample(url, 'api_db_pool_connections', { state: 'total' });
    if (engine === 'postgres') expect(pool).toBeGreaterThanOrEqual(1);
    else expect(pool).toBeUndefined();
  });

  it('when a person is connected in real time and a push goes out, then the connection is counted and the push latency observed', async () => {
    const admin = await signIn(api, 'admin');
    const socket = await openRealtime(api, admin);
    try {
      expect(await sample(api.metricsUrl!, 'api_realtime_connections')).toBe(1);
      const before = (await sample(api.metricsUrl!, 'api_realtime_push_latency_seconds_count')) ?? 0;
      await api.realtime.publish([admin.personId], { channelType: 9999, text: 'metrics test' });
      await socket.waitFor((m) => m.channelType === 9999);
      expect(await sample(api.metricsUrl!, 'api_realtime_push_latency_seconds_count')).toBe(before + 1);
    } finally {
      await socket.close();
    }
  });
});
