// TimeService: the node's clock. Keel has no NTP client yet, so Time reports only the local time (no server,
// no remote time: those fields mean "what the NTP server said"), and TimeCheck is refused.
import { ApiError } from '../errors.js';
import { type Handler, unaryHandler } from '../handlers.js';

/** timestampOf is a google.protobuf.Timestamp for ms since the epoch. */
export const timestampOf = (ms: number) => ({
  seconds: String(Math.floor(ms / 1000)),
  nanos: Math.round((ms - Math.floor(ms / 1000) * 1000) * 1e6),
});

export function timeHandler(now: () => number = Date.now): Handler {
  return unaryHandler(async () => ({ messages: [{ localtime: timestampOf(now()) }] }));
}

export function timeCheckHandler(): Handler {
  return unaryHandler(async (req) => {
    const server = typeof req.server === 'string' ? req.server : '';
    throw new ApiError(
      'unimplemented',
      `TimeCheck${server ? ` of ${server}` : ''}: Keel has no NTP client yet, so it cannot query a time server`,
    );
  });
}
