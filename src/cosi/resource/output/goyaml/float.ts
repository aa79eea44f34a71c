// Go's float formatting: strconv's shortest 'g' (yaml.v3 and fmt's %v) and encoding/json's rule.

/** formatGoG is strconv.FormatFloat(v, 'g', -1, 64): shortest digits, exponent form below 1e-4 or from 1e6. */
export function formatGoG(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return '+Inf';
  if (v === Number.NEGATIVE_INFINITY) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const sign = v < 0 ? '-' : '';
  // toExponential() without an argument gives the shortest round-tripping digits, as Go does
  const [mantissa, e] = Math.abs(v).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const abs = Math.abs(exp);
    return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${abs < 10 ? `0${abs}` : abs}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const int = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}

/** formatYAMLFloat is how yaml.v3 writes a float64: 'g' digits, with .inf/-.inf/.nan for the specials. */
export function formatYAMLFloat(v: number): string {
  if (Number.isNaN(v)) return '.nan';
  if (v === Number.POSITIVE_INFINITY) return '.inf';
  if (v === Number.NEGATIVE_INFINITY) return '-.inf';
  return formatGoG(v);
}

/**
 * formatJSONFloat is encoding/json's float64 form, which matches JS number printing (exponent below
 * 1e-6 and from 1e21) except for negative zero. Returns undefined for NaN and infinities, which Go rejects.
 */
export function formatJSONFloat(v: number): string | undefined {
  if (!Number.isFinite(v)) return undefined;
  return Object.is(v, -0) ? '-0' : String(v);
}
