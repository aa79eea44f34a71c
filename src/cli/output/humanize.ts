// Relative times as go-humanize's Time prints them ("3 days ago", "10 years from now"), which talosctl uses.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30 * DAY;
const YEAR = 12 * MONTH;
const LONG_TIME = 37 * YEAR;

/** go-humanize's magnitudes: below `below`, print `format` with the difference divided by `divBy`. */
const MAGNITUDES: readonly { below: number; format: string; divBy: number }[] = [
  { below: SECOND, format: 'now', divBy: SECOND },
  { below: 2 * SECOND, format: '1 second %s', divBy: 1 },
  { below: MINUTE, format: '%d seconds %s', divBy: SECOND },
  { below: 2 * MINUTE, format: '1 minute %s', divBy: 1 },
  { below: HOUR, format: '%d minutes %s', divBy: MINUTE },
  { below: 2 * HOUR, format: '1 hour %s', divBy: 1 },
  { below: DAY, format: '%d hours %s', divBy: HOUR },
  { below: 2 * DAY, format: '1 day %s', divBy: 1 },
  { below: WEEK, format: '%d days %s', divBy: DAY },
  { below: 2 * WEEK, format: '1 week %s', divBy: 1 },
  { below: MONTH, format: '%d weeks %s', divBy: WEEK },
  { below: 2 * MONTH, format: '1 month %s', divBy: 1 },
  { below: YEAR, format: '%d months %s', divBy: MONTH },
  { below: 18 * MONTH, format: '1 year %s', divBy: 1 },
  { below: 2 * YEAR, format: '2 years %s', divBy: 1 },
  { below: LONG_TIME, format: '%d years %s', divBy: YEAR },
  { below: Number.POSITIVE_INFINITY, format: 'a long while %s', divBy: 1 },
];

/** humanizeTime says how far `then` is from `now`, "ago" for the past and "from now" for the future. */
export function humanizeTime(then: Date, now: Date): string {
  let diff = now.getTime() - then.getTime();
  let label = 'ago';
  if (diff < 0) {
    diff = -diff;
    label = 'from now';
  }
  const mag = MAGNITUDES.find((m) => diff < m.below)!;
  return mag.format.replace('%d', String(Math.trunc(diff / mag.divBy))).replace('%s', label);
}
