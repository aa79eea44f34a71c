// RFC 6902 JSON Patch over plain JSON values (add, remove, replace, move, copy, test).

export interface JsonPatchOperation {
  readonly op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  readonly path: string;
  readonly from?: string;
  readonly value?: unknown;
}

export class JsonPatchError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(`operation ${index}: ${message}`);
    this.name = 'JsonPatchError';
  }
}

type Container = Record<string, unknown> | unknown[];
const ops = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** parseOperations checks the shape of a decoded patch document. */
export function parseOperations(value: unknown): JsonPatchOperation[] {
  if (!Array.isArray(value)) throw new JsonPatchError(0, 'a JSON patch is a list of operations');
  return value.map((o, i) => {
    const op = o as Partial<JsonPatchOperation> | null;
    if (typeof op !== 'object' || op === null || !ops.has(String(op.op)))
      throw new JsonPatchError(i, `unknown op ${JSON.stringify(op?.op)}`);
    if (typeof op.path !== 'string') throw new JsonPatchError(i, 'path is required');
    if ((op.op === 'move' || op.op === 'copy') && typeof op.from !== 'string')
      throw new JsonPatchError(i, 'from is required');
    if ((op.op === 'add' || op.op === 'replace' || op.op === 'test') && !('value' in op))
      throw new JsonPatchError(i, 'value is required');
    return op as JsonPatchOperation;
  });
}

/** applyJsonPatch returns a patched copy of `doc`; the operations apply in order, all or nothing. */
export function applyJsonPatch(doc: unknown, operations: readonly JsonPatchOperation[]): unknown {
  let root = structuredClone(doc);
  operations.forEach((op, i) => {
    const fail = (msg: string): never => {
      throw new JsonPatchError(i, `${op.op} ${op.path}: ${msg}`);
    };
    switch (op.op) {
      case 'add':
        root = put(root, op.path, structuredClone(op.value), 'add', fail);
        break;
      case 'replace':
        root = put(root, op.path, structuredClone(op.value), 'replace', fail);
        break;
      case 'remove':
        root = remove(root, op.path, fail).root;
        break;
      case 'move': {
        if (op.path.startsWith(`${op.from}/`)) fail('cannot move a value into itself');
        const taken = remove(root, op.from!, fail);
        root = put(taken.root, op.path, taken.value, 'add', fail);
        break;
      }
      case 'copy':
        root = put(root, op.path, structuredClone(get(root, op.from!, fail)), 'add', fail);
        break;
      case 'test':
        if (JSON.stringify(get(root, op.path, fail)) !== JSON.stringify(op.value)) fail('test failed');
        break;
    }
  });
  return root;
}

const tokens = (path: string, fail: (m: string) => never): string[] => {
  if (path === '') return [];
  if (!path.startsWith('/')) fail('a JSON pointer starts with "/"');
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
};

function index(c: unknown[], t: string, fail: (m: string) => never, allowEnd: boolean): number {
  if (t === '-' && allowEnd) return c.length;
  if (!/^(0|[1-9]\d*)$/.test(t)) fail(`invalid array index ${JSON.stringify(t)}`);
  const i = Number(t);
  if (i > c.length || (!allowEnd && i === c.length)) fail(`index ${i} out of range`);
  return i;
}

function parentOf(root: unknown, ts: string[], fail: (m: string) => never): Container {
  let cur = root;
  for (const t of ts.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[index(cur, t, fail, false)];
    else if (typeof cur === 'object' && cur !== null && t in cur) cur = (cur as Record<string, unknown>)[t];
    else fail(`path not found at ${JSON.stringify(t)}`);
  }
  if (typeof cur !== 'object' || cur === null) fail('parent is not an object or array');
  return cur as Container;
}

function get(root: unknown, path: string, fail: (m: string) => never): unknown {
  const ts = tokens(path, fail);
  if (ts.length === 0) return root;
  const p = parentOf(root, ts, fail);
  const last = ts.at(-1)!;
  if (Array.isArray(p)) return p[index(p, last, fail, false)];
  if (!(last in p)) fail('path not found');
  return p[last];
}

function put(
  root: unknown,
  path: string,
  value: unknown,
  mode: 'add' | 'replace',
  fail: (m: string) => never,
): unknown {
  const ts = tokens(path, fail);
  if (ts.length === 0) return value;
  const p = parentOf(root, ts, fail);
  const last = ts.at(-1)!;
  if (Array.isArray(p)) {
    const i = index(p, last, fail, mode === 'add');
    if (mode === 'add') p.splice(i, 0, value);
    else p[i] = value;
  } else {
    if (mode === 'replace' && !(last in p)) fail('path not found');
    p[last] = value;
  }
  return root;
}

function remove(root: unknown, path: string, fail: (m: string) => never): { root: unknown; value: unknown } {
  const ts = tokens(path, fail);
  if (ts.length === 0) fail('cannot remove the root');
  const p = parentOf(root, ts, fail);
  const last = ts.at(-1)!;
  if (Array.isArray(p)) return { root, value: p.splice(index(p, last, fail, false), 1)[0] };
  if (!(last in p)) fail('path not found');
  const value = p[last];
  delete p[last];
  return { root, value };
}
