// Go's os.FileMode.String: type letters (or `-`), then rwx for owner, group and others, e.g. `drwxr-xr-x`.

/** Go's mode type letters, one per bit from the top (ModeDir = 1<<31 down to ModeIrregular). */
const TYPE_LETTERS = 'dalTLDpSugct?';
const RWX = 'rwxrwxrwx';

/** fileMode formats Go FileMode bits, which the List RPC sends (not raw st_mode). */
export function fileMode(mode: number): string {
  let out = '';
  for (let i = 0; i < TYPE_LETTERS.length; i++) if ((mode >>> (31 - i)) & 1) out += TYPE_LETTERS[i];
  if (out === '') out = '-';
  for (let i = 0; i < 9; i++) out += (mode >>> (8 - i)) & 1 ? RWX[i] : '-';
  return out;
}
