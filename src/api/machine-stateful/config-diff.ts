// A unified diff of two encoded configs, for dry runs: line LCS, hunks with three lines of context.

const CONTEXT = 3;

type Op = { readonly kind: ' ' | '-' | '+'; readonly line: string; readonly a: number; readonly b: number };

/** lineOps is the edit script from `a` to `b` (a config is a few hundred lines: quadratic is fine). */
function lineOps(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ kind: ' ', line: a[i++]!, a: i, b: ++j });
    // deletions before insertions, as diff(1) prints a changed line
    else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!))
      ops.push({ kind: '-', line: a[i++]!, a: i, b: j });
    else ops.push({ kind: '+', line: b[j++]!, a: i, b: j });
  }
  return ops;
}

const splitLines = (s: string): string[] => (s === '' ? [] : s.replace(/\n$/, '').split('\n'));

/** unifiedDiff returns '' when the texts are equal. */
export function unifiedDiff(before: string, after: string, names = { a: 'a/config', b: 'b/config' }): string {
  const ops = lineOps(splitLines(before), splitLines(after));
  const changed = ops.map((o, k) => (o.kind !== ' ' ? k : -1)).filter((k) => k >= 0);
  if (changed.length === 0) return '';
  const out = [`--- ${names.a}`, `+++ ${names.b}`];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - CONTEXT);
    let end = Math.min(ops.length, changed[k]! + CONTEXT + 1);
    while (k + 1 < changed.length && changed[k + 1]! - CONTEXT <= end) {
      k++;
      end = Math.min(ops.length, changed[k]! + CONTEXT + 1);
    }
    k++;
    const hunk = ops.slice(start, end);
    const aLen = hunk.filter((o) => o.kind !== '+').length;
    const bLen = hunk.filter((o) => o.kind !== '-').length;
    const first = hunk[0]!;
    const aStart = first.kind === '+' ? first.a : first.a - 1;
    const bStart = first.kind === '-' ? first.b : first.b - 1;
    out.push(`@@ -${aLen ? aStart + 1 : aStart},${aLen} +${bLen ? bStart + 1 : bStart},${bLen} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
  }
  return `${out.join('\n')}\n`;
}
