// What NodeApply does to the Node between reading and writing it, as upstream's syncOnce: the wanted
// labels, annotations and taints are set, and a key Talos set before (listed in its owned-* annotation)
// is changed or removed as the specs say. A key someone else set is taken over only when it already has
// the wanted value, and otherwise left alone. Pure: the Node is plain data.
import type { NodeTaintSpecSpec } from '../../../../resources/k8s/index.js';
import type { KubeNode, Taint } from '../../../../src/k8s/index.js';
import {
  ANNOTATION_CORDONED_KEY,
  ANNOTATION_CORDONED_VALUE,
  ANNOTATION_OWNED_ANNOTATIONS,
  ANNOTATION_OWNED_LABELS,
  ANNOTATION_OWNED_TAINTS,
} from './constants.js';

/** WantedNode: the specs, gathered (labels and annotations by key). */
export interface WantedNode {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly taints: readonly NodeTaintSpecSpec[];
  readonly cordoned: boolean;
}

export interface NodeApplyResult {
  /** whether the Node differs from what was read, so it needs writing */
  readonly changed: boolean;
  /** keys left alone because someone else set them to another value (`label:k`, `annotation:k`, `taint:k`) */
  readonly skipped: readonly string[];
}

/** applyToNode edits the Node in place; an owned-* annotation that is not a JSON list of strings throws. */
export function applyToNode(node: KubeNode, want: WantedNode): NodeApplyResult {
  const before = fingerprint(node);
  node.metadata.labels ??= {};
  node.metadata.annotations ??= {};
  const annotations = node.metadata.annotations;
  const ownedLabels = readOwned(annotations, ANNOTATION_OWNED_LABELS);
  const ownedAnnotations = readOwned(annotations, ANNOTATION_OWNED_ANNOTATIONS);
  const ownedTaints = readOwned(annotations, ANNOTATION_OWNED_TAINTS);
  const skipped: string[] = [];
  for (const k of applyKV(node.metadata.labels, ownedLabels, want.labels)) skipped.push(`label:${k}`);
  for (const k of applyKV(annotations, ownedAnnotations, want.annotations)) skipped.push(`annotation:${k}`);
  for (const k of applyTaints(node, ownedTaints, want.taints)) skipped.push(`taint:${k}`);
  applyCordoned(node, want.cordoned);
  writeOwned(annotations, ANNOTATION_OWNED_LABELS, ownedLabels);
  writeOwned(annotations, ANNOTATION_OWNED_ANNOTATIONS, ownedAnnotations);
  writeOwned(annotations, ANNOTATION_OWNED_TAINTS, ownedTaints);
  return { changed: fingerprint(node) !== before, skipped };
}

/** applyKV is upstream's applyNodeKV over labels or annotations; it returns the keys it left alone. */
export function applyKV(
  kv: Record<string, string>,
  owned: Set<string>,
  spec: Readonly<Record<string, string>>,
): string[] {
  const skipped: string[] = [];
  for (const [key, value] of Object.entries(spec)) {
    if (!Object.hasOwn(kv, key) || kv[key] === value) {
      // not set yet, or already as wanted: Talos' from now on
      kv[key] = value;
      owned.add(key);
    } else if (owned.has(key)) kv[key] = value;
    else skipped.push(key);
  }
  for (const key of owned) {
    if (Object.hasOwn(spec, key)) continue;
    delete kv[key];
    owned.delete(key);
  }
  return skipped;
}

/** applyTaints is upstream's ApplyTaints: one taint per key, the last one with the key when there are several. */
export function applyTaints(
  node: KubeNode,
  owned: Set<string>,
  wanted: readonly NodeTaintSpecSpec[],
): string[] {
  node.spec ??= {};
  const taints: Taint[] = node.spec.taints ?? [];
  const skipped: string[] = [];
  for (const t of wanted) {
    const current = taints.findLast((x) => x.key === t.key);
    if (!current) {
      taints.push(taintOf(t));
      owned.add(t.key);
    } else if (owned.has(t.key)) {
      setValue(current, t.value);
      current.effect = t.effect;
    } else if ((current.value ?? '') === t.value && current.effect === t.effect) owned.add(t.key);
    else skipped.push(t.key);
  }
  const kept = taints.filter((x) => {
    if (!owned.has(x.key) || wanted.some((t) => t.key === x.key)) return true;
    owned.delete(x.key);
    return false;
  });
  if (kept.length > 0) node.spec.taints = kept;
  else delete node.spec.taints;
  return skipped;
}

/** applyCordoned is upstream's ApplyCordoned: only a cordon Talos made (its annotation) is lifted. */
export function applyCordoned(node: KubeNode, cordon: boolean): void {
  node.spec ??= {};
  node.metadata.annotations ??= {};
  const annotations = node.metadata.annotations;
  if (cordon && !node.spec.unschedulable) {
    node.spec.unschedulable = true;
    annotations[ANNOTATION_CORDONED_KEY] = ANNOTATION_CORDONED_VALUE;
  } else if (!cordon && node.spec.unschedulable && Object.hasOwn(annotations, ANNOTATION_CORDONED_KEY)) {
    node.spec.unschedulable = false;
    delete annotations[ANNOTATION_CORDONED_KEY];
  }
}

/** readOwned parses an owned-* annotation: a JSON list of keys, absent or empty meaning none. */
export function readOwned(annotations: Readonly<Record<string, string>>, name: string): Set<string> {
  const text = annotations[name] ?? '';
  if (text === '') return new Set();
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (e) {
    throw new Error(`node annotation ${name}: ${(e as Error).message}`, { cause: e });
  }
  if (list === null) return new Set();
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string'))
    throw new Error(`node annotation ${name}: not a JSON list of strings`);
  return new Set(list);
}

/** writeOwned stores the keys sorted, as upstream, and drops the annotation when there are none. */
export function writeOwned(
  annotations: Record<string, string>,
  name: string,
  owned: ReadonlySet<string>,
): void {
  if (owned.size === 0) delete annotations[name];
  else annotations[name] = JSON.stringify([...owned].sort());
}

// an empty value is left out, as the API server stores it (Go's omitempty), so a pass over an applied
// Node finds nothing to change
const taintOf = (t: NodeTaintSpecSpec): Taint => ({
  key: t.key,
  ...(t.value ? { value: t.value } : {}),
  effect: t.effect,
});

function setValue(taint: Taint, value: string): void {
  if (value) taint.value = value;
  else delete taint.value;
}

/** fingerprint: what applyToNode may change, with key order and absent-versus-empty ignored. */
function fingerprint(node: KubeNode): string {
  const sorted = (r: Record<string, string> | undefined) =>
    Object.entries(r ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([
    sorted(node.metadata.labels),
    sorted(node.metadata.annotations),
    (node.spec?.taints ?? []).map((t) => [t.key, t.value ?? '', t.effect, t.timeAdded ?? '']),
    node.spec?.unschedulable === true,
  ]);
}
