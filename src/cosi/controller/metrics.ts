// Runtime metrics: counters and gauges keyed by controller (or type) name, as upstream's expvar maps.

export type MetricName =
  /** classic controller restarts after a throw */
  | 'controller_crashes'
  /** wake-ups that were not already pending */
  | 'controller_wakeups'
  /** reader calls (get, list, teardownScope; cached or not), classic and Q controllers */
  | 'controller_reads'
  /** writer calls (create, update, modify, teardown, destroy, finalizer changes), classic and Q controllers */
  | 'controller_writes'
  | 'qcontroller_crashes'
  | 'qcontroller_skips'
  | 'qcontroller_requeues'
  | 'qcontroller_processed'
  | 'qcontroller_mapped_in'
  | 'qcontroller_mapped_out'
  /** gauge: items queued or parked */
  | 'qcontroller_queue_length'
  /** seconds spent in map jobs */
  | 'qcontroller_map_busy'
  /** seconds spent in reconcile jobs */
  | 'qcontroller_reconcile_busy'
  /** gauge, keyed by type: resources held by the cache */
  | 'cached_resources'
  /** transform controllers: reconcile passes, input items seen, seconds busy */
  | 'reconcile_cycles'
  | 'reconcile_input_items'
  | 'reconcile_busy';

export const METRIC_NAMES: readonly MetricName[] = [
  'controller_crashes',
  'controller_wakeups',
  'controller_reads',
  'controller_writes',
  'qcontroller_crashes',
  'qcontroller_skips',
  'qcontroller_requeues',
  'qcontroller_processed',
  'qcontroller_mapped_in',
  'qcontroller_mapped_out',
  'qcontroller_queue_length',
  'qcontroller_map_busy',
  'qcontroller_reconcile_busy',
  'cached_resources',
  'reconcile_cycles',
  'reconcile_input_items',
  'reconcile_busy',
];

/** RuntimeMetrics is a snapshot: metric → key (controller name, or type for the cache) → value. */
export type RuntimeMetrics = { readonly [K in MetricName]: Readonly<Record<string, number>> };
