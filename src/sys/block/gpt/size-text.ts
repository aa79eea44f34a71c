// Byte counts as people read them in error messages: binary units, up to two decimals.
const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'] as const;

export function sizeText(bytes: bigint): string {
  let unit = 0;
  let scale = 1n;
  while (unit < UNITS.length - 1 && bytes >= scale * 1024n) {
    scale *= 1024n;
    unit++;
  }
  const hundredths = (bytes * 100n) / scale;
  const whole = hundredths / 100n;
  const frac = hundredths % 100n;
  const shown = frac === 0n ? `${whole}` : `${whole}.${frac.toString().padStart(2, '0').replace(/0$/, '')}`;
  return `${shown} ${UNITS[unit]}`;
}
