// Go's os.FileMode bits, which the machine API carries instead of raw st_mode (talosctl decodes them).
import { constants } from 'node:fs';

const { S_IFMT, S_IFDIR, S_IFLNK, S_IFIFO, S_IFSOCK, S_IFBLK, S_IFCHR, S_IFREG } = constants;

/** The type and special bits of io/fs.FileMode, high bits first. */
export const GO_MODE = {
  dir: 2 ** 31,
  symlink: 2 ** 27,
  device: 2 ** 26,
  namedPipe: 2 ** 25,
  socket: 2 ** 24,
  setuid: 2 ** 23,
  setgid: 2 ** 22,
  charDevice: 2 ** 21,
  sticky: 2 ** 20,
  irregular: 2 ** 19,
} as const;

/** goFileMode converts st_mode the way Go's os.Lstat does; the result fits a uint32. */
export function goFileMode(stMode: number): number {
  let m = stMode & 0o777;
  switch (stMode & S_IFMT) {
    case S_IFDIR:
      m += GO_MODE.dir;
      break;
    case S_IFLNK:
      m += GO_MODE.symlink;
      break;
    case S_IFIFO:
      m += GO_MODE.namedPipe;
      break;
    case S_IFSOCK:
      m += GO_MODE.socket;
      break;
    case S_IFBLK:
      m += GO_MODE.device;
      break;
    case S_IFCHR:
      m += GO_MODE.device + GO_MODE.charDevice;
      break;
    case S_IFREG:
      break;
    default:
      m += GO_MODE.irregular;
  }
  if (stMode & 0o4000) m += GO_MODE.setuid;
  if (stMode & 0o2000) m += GO_MODE.setgid;
  if (stMode & 0o1000) m += GO_MODE.sticky;
  return m;
}
