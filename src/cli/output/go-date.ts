// Dates in Go's "Jan 2 2006" layout, as `ls -l` prints modification times (local time, like Go's time.Unix).

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const shortDate = (unixSeconds: number): string => {
  const d = new Date(unixSeconds * 1000);
  return `${MONTHS[d.getMonth()]} ${d.getDate()} ${d.getFullYear()}`;
};
