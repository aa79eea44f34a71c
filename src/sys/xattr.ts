// listxattr(2)/getxattr(2): a file's extended attributes, as `ls -l` reports them (SELinux labels among them).
import { lastErrno, libc } from './libc.js';

const listxattr_ = libc.func('long listxattr(const char *path, _Out_ uint8_t *list, size_t size)');
const getxattr_ = libc.func(
  'long getxattr(const char *path, const char *name, _Out_ uint8_t *value, size_t size)',
);

const ERANGE = 34;

/** Xattr is one extended attribute: its name and raw value. */
export interface Xattr {
  readonly name: string;
  readonly data: Buffer;
}

/**
 * sized calls a size-then-fill syscall pair: ask for the size with an empty buffer, fill, and ask again if
 * the value grew in between (ERANGE). Returns undefined on any other failure (no xattr support, no access).
 */
function sized(call: (buf: Buffer | null, size: number) => number): Buffer | undefined {
  for (let attempt = 0; attempt < 4; attempt++) {
    const size = call(null, 0);
    if (size < 0) return undefined;
    if (size === 0) return Buffer.alloc(0);
    const buf = Buffer.alloc(size);
    const got = call(buf, size);
    if (got >= 0) return buf.subarray(0, got);
    if (lastErrno() !== ERANGE) return undefined;
  }
  return undefined;
}

/** getxattr reads one attribute, following symlinks; undefined when it is absent or unreadable. */
export function getxattr(path: string, name: string): Buffer | undefined {
  return sized((buf, size) => Number(getxattr_(path, name, buf, size)));
}

/**
 * listXattrs lists every readable attribute of a path, following symlinks; a file system without xattrs
 * (devtmpfs, sysfs, procfs) gives none rather than an error, as upstream's List does.
 */
export function listXattrs(path: string): Xattr[] {
  const names = sized((buf, size) => Number(listxattr_(path, buf, size)));
  const out: Xattr[] = [];
  for (const name of (names?.toString('utf8') ?? '').split('\0')) {
    if (!name) continue;
    const data = getxattr(path, name);
    if (data) out.push({ name, data });
  }
  return out;
}
