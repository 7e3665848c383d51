// The api's kept answers (issue 34, parts 11 and 15), as GET /metrics counts them.
import type { TestApi } from './start-api';

/** Answers served from what was kept (hit) and from the database (miss), by metric (`api_kept_by_id_total`, `api_kept_lists_total`). */
export async function keptCounts(
  api: TestApi,
  metricName: 'api_kept_by_id_total' | 'api_kept_lists_total',
): Promise<{ hit: number; miss: number }> {
  const metric = api.metrics.registry.getSingleMetric(metricName);
  const { values } = await metric!.get();
  const of = (result: string) => values.find((v) => v.labels.result === result)?.value ?? 0;
  return { hit: of('hit'), miss: of('miss') };
}
