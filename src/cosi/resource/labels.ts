// Labels: a copy-on-write map that can be matched against label query terms.
import { KV } from './kv.js';
import { type LabelTerm, matchTerm } from './label-query.js';

export class Labels extends KV {
  override copy(): Labels {
    return this.shareWith(new Labels());
  }

  matches(term: LabelTerm): boolean {
    return matchTerm(this, term);
  }
}
