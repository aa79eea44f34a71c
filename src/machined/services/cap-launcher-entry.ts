// Entry of the capability launcher: `cap-launcher-entry <json plan> -- <program> [args…]`.
import { launcherMain } from './cap-launcher.js';

launcherMain(process.argv.slice(2));
