// The files of an image made of busybox: the binary, a link for each of its applets where busybox itself
// puts them (`busybox --list-full`), busybox's copyright, the users a shell expects, and /tmp.
import type { OciFile } from './oci-archive.js';

export const BUSYBOX = 'bin/busybox';
/** where the applets' links may go: busybox also lists /linuxrc, an initramfs' init, left out */
const APPLET_DIRS = /^(bin|sbin|usr\/bin|usr\/sbin)\/[^/]+$/;

const PASSWD = 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n';
const GROUP = 'root:x:0:\nnogroup:x:65534:\n';

/** busyboxLayer lays out busybox, the links of `applets` (paths as --list-full prints them) and the rest. */
export function busyboxLayer(busybox: Buffer, applets: readonly string[], copyright: Buffer): OciFile[] {
  const links = [...new Set(applets.map((a) => a.trim()))].filter(
    (a) => APPLET_DIRS.test(a) && a !== BUSYBOX,
  );
  return [
    { path: BUSYBOX, type: 'file', mode: 0o755, content: busybox },
    ...links.map((path): OciFile => ({ path, type: 'symlink', target: `/${BUSYBOX}` })),
    { path: 'usr/share/doc/busybox/copyright', type: 'file', mode: 0o644, content: copyright },
    { path: 'etc/passwd', type: 'file', mode: 0o644, content: Buffer.from(PASSWD) },
    { path: 'etc/group', type: 'file', mode: 0o644, content: Buffer.from(GROUP) },
    { path: 'root', type: 'directory', mode: 0o700 },
    { path: 'tmp', type: 'directory', mode: 0o1777 },
  ];
}
