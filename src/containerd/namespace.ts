// containerd's rule for a namespace's name (its identifiers package): letters and digits in runs joined by
// single `.`, `_` or `-`, at most 76 characters. Checked before a call, so a bad name is refused with
// containerd's own code and words instead of failing as metadata gRPC cannot carry.
import { status } from '@grpc/grpc-js';
import { ContainerdError } from './errors.js';

const IDENTIFIER = /^[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*$/;
const MAX_LENGTH = 76;

/** checkNamespace throws ContainerdError(INVALID_ARGUMENT) for a name containerd would refuse. */
export function checkNamespace(name: string): void {
  const fail = (why: string) => {
    throw new ContainerdError(
      status.INVALID_ARGUMENT,
      `namespace ${JSON.stringify(name)}: ${why}: invalid argument`,
    );
  };
  if (name.length > MAX_LENGTH) fail(`greater than maximum length (${MAX_LENGTH} characters)`);
  if (!IDENTIFIER.test(name)) fail(`must match ${IDENTIFIER.source}`);
}
