// Match: list and watch filters (label queries OR-ed, an ID regexp) compiled into one predicate.
import { type IDQuery, matchID } from '../../resource/id-query.js';
import { type LabelQuery, matchQueries } from '../../resource/label-query.js';
import type { Resource } from '../../resource/resource.js';

export interface Filter {
  readonly labelQueries?: readonly LabelQuery[] | undefined;
  readonly idQuery?: IDQuery | undefined;
}

/** matcher compiles list/watch filters; undefined means "everything matches". */
export function matcher(f: Filter): ((r: Resource) => boolean) | undefined {
  const { labelQueries, idQuery } = f;
  const byLabel = labelQueries !== undefined && labelQueries.length > 0;
  if (!byLabel && !idQuery) return undefined;
  return (r) =>
    matchID(r.metadata.id, idQuery) && (!byLabel || matchQueries(r.metadata.labels, labelQueries));
}
