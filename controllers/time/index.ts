// controllers/time: the clock's sync state. syncController takes the clock setter, so machined wires
// SyncController (the real adjtimex) and tests a recorder.
import { adjtimex } from '../../src/sys/clock.js';
import { syncController } from './sync.js';

export {
  type SyncControllerOptions,
  type SyncerLike,
  syncController,
  type TimeSettings,
  timeSettingsOf,
} from './sync.js';

/** SyncController corrects the real clock; container mode needs syncController({ container: true, … }). */
export const SyncController = syncController({ adjustTime: (req) => adjtimex(req) });
