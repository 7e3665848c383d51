import type { Registry } from 'prom-client';

/** One series' figures: a count per bucket (not cumulative), the sum and the count. */
interface Series {
  labels: Record<string, string>;
  buckets: number[];
  sum: number;
  count: number;
}

/** What `get()` gives, in prom-client's shape (`MetricObjectWithValues`). */
interface Value {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
  /** As prom-client's: null on a bucket, undefined on the sum and count (no exemplars). */
  exemplar: null | undefined;
}

/**
 * A Prometheus histogram whose series are found once and observed by adding to plain numbers
 * (issue 34, part 14). prom-client's `Histogram` checks and hashes its labels on every
 * `observe`, even through a series got once with `labels()`: about 2 % of the api's busy time on
 * the cheapest calls, once per request. This one registers in a prom-client registry like any
 * metric and gives the same `get()` values and the same text on /metrics as a prom-client
 * histogram with the same name, help, buckets and observations (series-histogram.test.ts).
 * Only what the api uses: `series(labels).observe(seconds)`, `get()`, `reset()`.
 */
export class SeriesHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  private readonly bounds: number[];
  private readonly labelNames: string[];
  private all = new Map<string, Series>();

  constructor(o: {
    name: string;
    help: string;
    labelNames: readonly string[];
    buckets: number[];
    registers: Registry[];
  }) {
    this.name = o.name;
    this.help = o.help;
    this.labelNames = [...o.labelNames];
    this.bounds = [...o.buckets].sort((a, b) => a - b);
    for (const registry of o.registers) registry.registerMetric(this as never);
  }

  /** The series of these labels (every label name given, as prom-client requires), made once. */
  series(labels: Record<string, string>): { observe(value: number): void } {
    const key = this.labelNames.map((name) => labels[name]).join('\u0000');
    let series = this.all.get(key);
    if (!series) {
      for (const name of Object.keys(labels))
        if (!this.labelNames.includes(name)) throw new Error(`${this.name}: no label named ${name}`);
      series = { labels: { ...labels }, buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
      this.all.set(key, series);
    }
    const s = series;
    const bounds = this.bounds;
    return {
      observe(value: number): void {
        if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
        s.sum += value;
        s.count += 1;
        // The first bucket the value fits (a value above the last bound counts only in +Inf).
        for (let i = 0; i < bounds.length; i++) {
          if (value <= bounds[i]) {
            s.buckets[i] += 1;
            break;
          }
        }
      },
    };
  }

  /** The values as prom-client's histogram gives them: cumulative buckets, +Inf, sum, count per series. */
  async get(): Promise<{ name: string; help: string; type: 'histogram'; values: Value[]; aggregator: 'sum' }> {
    const values: Value[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.all.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += s.buckets[i];
        values.push({ labels: { le, ...s.labels }, value: cumulative, metricName: bucket, exemplar: null });
      });
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: bucket, exemplar: null });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum`, exemplar: undefined });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count`, exemplar: undefined });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.all = new Map();
  }
}
