// TimeService: the node's clock against its NTP server's. Keel has no NTP client yet, so there is no server
// time to report: both calls are refused, saying so (talosctl cannot print a reply without the remote time).
import { ApiError } from '../errors.js';
import { type Handler, unaryHandler } from '../handlers.js';

export function timeHandler(): Handler {
  return unaryHandler(async () => {
    throw new ApiError(
      'unimplemented',
      'Time: Keel has no NTP client yet, so there is no time server whose time to compare with the node clock',
    );
  });
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
