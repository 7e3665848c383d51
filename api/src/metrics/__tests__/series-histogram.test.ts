import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesHistogram } from '../series-histogram';

const config = {
  name: 'api_http_request_duration_seconds',
  help: 'Duration of HTTP requests, by method, declared route (e.g. /complain/list) and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
};
/** Values on, between and past the bounds, in two series and a third seen once. */
const observations: [Record<string, string>, number][] = [
  [{ method: 'GET', route: '/auth/current/user', status: '200' }, 0.0004],
  [{ method: 'GET', route: '/auth/current/user', status: '200' }, 0.001],
  [{ method: 'GET', route: '/auth/current/user', status: '200' }, 0.0011],
  [{ method: 'POST', route: '/complain/query/id/:id', status: '404' }, 0.3],
  [{ method: 'GET', route: '/auth/current/user', status: '200' }, 10],
  [{ method: 'GET', route: '/auth/current/user', status: '200' }, 12.5],
  [{ method: 'POST', route: '/complain/query/id/:id', status: '404' }, 0.025],
  [{ method: 'GET', route: '(none)', status: '404' }, 0],
];

describe('SeriesHistogram', () => {
  it('gives the same /metrics text and get() values as prom-client’s Histogram for the same observations', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const reference = new Histogram({ ...config, registers: [theirs] });
    const histogram = new SeriesHistogram({ ...config, registers: [ours] });
    for (const [labels, value] of observations) {
      reference.labels(labels).observe(value);
      histogram.series(labels).observe(value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await histogram.get()).toEqual(await reference.get());
    histogram.reset();
    reference.reset();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('refuses a label it was not given, and a value that is not a number, as prom-client does', () => {
    const histogram = new SeriesHistogram({ ...config, registers: [] });
    expect(() => histogram.series({ method: 'GET', route: '/x', status: '200', extra: 'y' })).toThrow(/extra/);
    expect(() => histogram.series({ method: 'GET', route: '/x', status: '200' }).observe(Number.NaN)).toThrow(
      TypeError,
    );
  });
});
