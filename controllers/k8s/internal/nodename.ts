// A hostname made into a valid Kubernetes node name, as upstream's nodename.FromHostname: lower case,
// underscores to dashes, anything else not a letter, digit, dash or dot dropped, and no dash or dot at
// either end.

/** NodenameError: nothing of the hostname is left to name a node with. */
export class NodenameError extends Error {
  override readonly name = 'NodenameError';
}

export function nodenameFromHostname(hostname: string): string {
  let out = '';
  for (const ch of hostname) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch === '.' || ch === '-') out += ch;
    else if (ch >= 'A' && ch <= 'Z') out += ch.toLowerCase();
    else if (ch === '_') out += '-';
  }
  out = out.replace(/^[-.]+|[-.]+$/g, '');
  if (out === '')
    throw new NodenameError(`could not convert hostname "${hostname}" to a valid Kubernetes Node name`);
  return out;
}
