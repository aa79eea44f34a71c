// Entry of the capability launcher: `cap-launcher-entry <json plan> -- <program> [args…]`.
import { launch } from './cap-launcher.js';

try {
  launch(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`cap-launcher: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(127);
}
