import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGateway, startRealApi, type GatewayProcess } from './kit';

// The gateway process serves /metrics on its own loopback port (METRICS_PORT), never on the
// console's port that the public reaches (issue 17).
let api: Awaited<ReturnType<typeof startRealApi>>;
let gateway: GatewayProcess;
let metricsUrl: string;

beforeAll(async () => {
  api = await startRealApi();
  gateway = await spawnGateway({ API_URL: api.url, METRICS_PORT: '0' });
  metricsUrl = gateway.logs.find((l) => l.msg === 'gateway listening')!.metrics as string;
});
afterAll(async () => {
  await gateway?.stop();
  await api?.cleanup();
});

describe('the gateway process and /metrics', () => {
  it('when started, then /metrics is on a port of its own on 127.0.0.1 and answers in Prometheus format', async () => {
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(metricsUrl).port).not.toBe(new URL(gateway.url).port);
    await fetch(`${gateway.url}/api/health`);
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('# TYPE gateway_proxy_duration_seconds histogram');
    expect(text).toMatch(/gateway_proxy_duration_seconds_count\{method="GET",status="200"\} 1/);
  });

  it("when /metrics is asked on the console's port, then it is not found (and not the console page)", async () => {
    const res = await fetch(`${gateway.url}/metrics`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('gateway_');
  });

  it('when METRICS_PORT is taken, then the gateway still serves people and warns that /metrics is missing', async () => {
    const port = new URL(metricsUrl).port;
    const second = await spawnGateway({ API_URL: api.url, METRICS_PORT: port });
    try {
      expect((await fetch(`${second.url}/health`)).status).toBe(200);
      const warning = second.logs.find((l) => l.level === 40 && String(l.msg).startsWith(`METRICS_PORT ${port}`));
      expect(warning?.msg).toContain('/metrics is not served');
    } finally {
      await second.stop();
    }
  });
});
