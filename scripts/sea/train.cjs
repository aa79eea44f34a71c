// The code-cache training run of the SEA build: `node --random-seed=N train.cjs BUNDLE CACHE`. Compiles
// the wrapped bundle exactly as loader.cjs does, lets machined load its modules and serve one Version call
// in maintenance mode on loopback (src/machined/code-cache-training.ts), then writes V8's code cache, which
// now holds the bytecode of every function that ran, not only of the top level.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { Script } = require('node:vm');

const [bundle, cacheFile] = process.argv.slice(2);
const script = new Script(readFileSync(bundle, 'utf8'), { filename: 'machined.js' });
process.env.KEEL_CODE_CACHE_TRAINING = '1';
script.runInThisContext()(exports, require, module, __filename, __dirname);
const training = globalThis[Symbol.for('keel.codeCacheTraining')];
if (!training) throw new Error(`${bundle}: the bundle did not start its code-cache training`);
training.then(() => {
  writeFileSync(cacheFile, script.createCachedData());
  // machined's modules may leave handles open (timers, the kernel log); the cache is all we wanted
  process.exit(0);
});
