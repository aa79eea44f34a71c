// keelctl's own output helpers: the pieces of talosctl's layouts that the shared renderers do not cover
// (watch rows, relative times, durations, byte sizes, file modes, dates, columnized lists, dot graphs).
export { humanizeBytes } from './bytes.js';
export { columnize } from './columnize.js';
export { type DotGraph, dotGraph } from './dot.js';
export { goDuration } from './duration.js';
export { fileMode } from './file-mode.js';
export { shortDate } from './go-date.js';
export { humanizeTime } from './humanize.js';
export { renderWatchRow } from './table-row.js';
