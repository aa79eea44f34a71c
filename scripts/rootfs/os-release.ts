// Renders images/os-release.in. Kept separate because the same template becomes the UKI's .osrel.
import { RootfsError } from './errors.js';

/** VERSION_ID's alphabet per os-release(5); checking it here keeps both users of the template valid. */
const VERSION_ID = /^[0-9a-z][0-9a-z._-]*$/;

/** renderOsRelease fills @VERSION@ and refuses any placeholder it does not know. */
export function renderOsRelease(template: string, version: string): string {
  if (!VERSION_ID.test(version)) {
    throw new RootfsError(
      'usage',
      `version '${version}' is not a valid VERSION_ID (use 0-9, a-z, '.', '_', '-')`,
    );
  }
  const out = template.replaceAll('@VERSION@', version);
  const left = /@[A-Z_]+@/.exec(out);
  if (left) throw new RootfsError('usage', `os-release template: unknown placeholder ${left[0]}`);
  return out.endsWith('\n') ? out : `${out}\n`;
}
