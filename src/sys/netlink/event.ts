// An rtnetlink message decoded by its type: what a dump returns and what a subscription delivers.
import { type Address, decodeAddress } from './address.js';
import * as C from './constants.js';
import { decodeLink, type Link } from './link.js';
import type { NlMessage } from './message.js';
import { decodeRoute, type Route } from './route.js';

export type RtnlAction = 'new' | 'del';

export type RtnlMessage =
  | { readonly kind: 'link'; readonly action: RtnlAction; readonly link: Link }
  | { readonly kind: 'address'; readonly action: RtnlAction; readonly address: Address }
  | { readonly kind: 'route'; readonly action: RtnlAction; readonly route: Route }
  /** anything else (neighbours, rules, a short or unreadable payload): the message as received */
  | { readonly kind: 'other'; readonly message: NlMessage };

/** decodeRtnl types a message; never throws (an unreadable payload comes back as 'other'). */
export function decodeRtnl(message: NlMessage): RtnlMessage {
  const { type } = message.header;
  try {
    switch (type) {
      case C.RTM_NEWLINK:
      case C.RTM_DELLINK:
        return {
          kind: 'link',
          action: type === C.RTM_NEWLINK ? 'new' : 'del',
          link: decodeLink(message.data),
        };
      case C.RTM_NEWADDR:
      case C.RTM_DELADDR:
        return {
          kind: 'address',
          action: type === C.RTM_NEWADDR ? 'new' : 'del',
          address: decodeAddress(message.data),
        };
      case C.RTM_NEWROUTE:
      case C.RTM_DELROUTE:
        return {
          kind: 'route',
          action: type === C.RTM_NEWROUTE ? 'new' : 'del',
          route: decodeRoute(message.data),
        };
    }
  } catch {
    // a payload shorter than its fixed header
  }
  return { kind: 'other', message };
}
