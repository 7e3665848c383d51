import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { SeriesHistogram } from './series-histogram';

/** Connections of the PostgreSQL pool (pg.Pool's own counts). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * The api's Prometheus metrics (GET /metrics on API_METRICS_PORT): request durations by route,
 * database query time and pool, real-time connections and push latency, and the process's own
 * figures. One registry per api so several can share a process (tests).
 */
export class ApiMetrics {
  readonly registry = new Registry();
  /** Filled in once the database and the real-time channel exist. */
  private sources: {
    pool?: () => PoolStats;
    realtimeConnections?: () => number;
    keptById?: { hits: number; misses: number };
    keptLists?: { hits: number; misses: number };
  } = {};

  /** Observed once per request: a histogram without prom-client's label hashing per call (series-histogram.ts). */
  readonly httpDuration = new SeriesHistogram({
    name: 'api_http_request_duration_seconds',
    help: 'Duration of HTTP requests, by method, declared route (e.g. /complain/list) and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  /** Observed once per query: as httpDuration, without prom-client's label checks per call (issue 34, part 34). */
  readonly queryDuration = new SeriesHistogram({
    name: 'api_db_query_duration_seconds',
    help: 'Duration of database queries, from sending to the answer (including the wait for a connection of the embedded database)',
    labelNames: ['engine'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly poolConnections: Gauge<'state'> = new Gauge({
    name: 'api_db_pool_connections',
    help: 'PostgreSQL pool connections by state: total, idle, and requests waiting for one (absent on the embedded database)',
    labelNames: ['state'] as const,
    registers: [this.registry],
    collect: (): void => {
      const stats = this.sources.pool?.();
      if (!stats) return;
      this.poolConnections.set({ state: 'total' }, stats.total);
      this.poolConnections.set({ state: 'idle' }, stats.idle);
      this.poolConnections.set({ state: 'waiting' }, stats.waiting);
    },
  });
  readonly realtimeConnections: Gauge = new Gauge({
    name: 'api_realtime_connections',
    help: 'Open real-time (upstream WebSocket) connections on this instance',
    registers: [this.registry],
    collect: (): void => this.realtimeConnections.set(this.sources.realtimeConnections?.() ?? 0),
  });
  readonly pushLatency = new Histogram({
    name: 'api_realtime_push_latency_seconds',
    help: 'Time from publishing a real-time push to handing it to the open sockets on this instance (through PostgreSQL NOTIFY when on PostgreSQL)',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });

  /** Counted by the cache itself (two additions a call) and read here when scraped. */
  readonly keptById: Counter<'result'> = new Counter({
    name: 'api_kept_by_id_total',
    help: "Complaints' and work orders' answers by id: answered from the kept answers (hit) or read from the database (miss)",
    labelNames: ['result'] as const,
    registers: [this.registry],
    collect: (): void => {
      const kept = this.sources.keptById;
      if (!kept) return;
      this.keptById.reset();
      this.keptById.inc({ result: 'hit' }, kept.hits);
      this.keptById.inc({ result: 'miss' }, kept.misses);
    },
  });

  /** The same for the list pages (kept-lists.ts). */
  readonly keptLists: Counter<'result'> = new Counter({
    name: 'api_kept_lists_total',
    help: 'Complaint and work-order list pages: answered from the kept pages (hit) or read from the database (miss)',
    labelNames: ['result'] as const,
    registers: [this.registry],
    collect: (): void => {
      const kept = this.sources.keptLists;
      if (!kept) return;
      this.keptLists.reset();
      this.keptLists.inc({ result: 'hit' }, kept.hits);
      this.keptLists.inc({ result: 'miss' }, kept.misses);
    },
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'api_' });
  }

  watch(sources: {
    pool?: () => PoolStats;
    realtimeConnections?: () => number;
    keptById?: { hits: number; misses: number };
    keptLists?: { hits: number; misses: number };
  }): void {
    Object.assign(this.sources, sources);
  }
}
