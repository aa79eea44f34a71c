// An error as the checks show it: what came back from an API as Go prints a status error (`rpc error: code
// = … desc = …`), since upstream's checks read every node through apid; anything else by its message.
import { goStatusText } from '../go-status.js';

const codeOf = (e: unknown): number | undefined => {
  const grpc = (e as { grpcCode?: unknown } | null)?.grpcCode;
  if (typeof grpc === 'number') return grpc;
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === 'number' ? c : undefined;
};

export function errorText(e: unknown): string {
  const code = codeOf(e);
  const details = (e as { details?: unknown } | null)?.details;
  const message =
    typeof details === 'string' && details ? details : e instanceof Error ? e.message : String(e);
  return code === undefined ? message : goStatusText(code, message);
}

/** grpcCodeOf is the status code an error carries, if it carries one. */
export const grpcCodeOf = codeOf;
