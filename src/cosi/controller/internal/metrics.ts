// Metrics registry behind Runtime.metrics(); disabled metrics cost one branch per call.
import { METRIC_NAMES, type MetricName, type RuntimeMetrics } from '../metrics.js';

export interface MetricsRegistry {
  readonly enabled: boolean;
  add(name: MetricName, key: string, delta: number): void;
  set(name: MetricName, key: string, value: number): void;
  snapshot(): RuntimeMetrics;
}

export function metricsRegistry(enabled: boolean): MetricsRegistry {
  const maps = new Map<MetricName, Map<string, number>>(METRIC_NAMES.map((n) => [n, new Map()]));
  return {
    enabled,
    add(name, key, delta) {
      if (!enabled) return;
      const m = maps.get(name)!;
      m.set(key, (m.get(key) ?? 0) + delta);
    },
    set(name, key, value) {
      if (enabled) maps.get(name)!.set(key, value);
    },
    snapshot() {
      const out = {} as Record<MetricName, Record<string, number>>;
      for (const [name, m] of maps) out[name] = Object.fromEntries(m);
      return out;
    },
  };
}
