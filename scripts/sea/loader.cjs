// The single executable's main script: compiles the machined bundle (a blob asset) with the code cache
// the build trained on it (scripts/sea/train.cjs), then runs it as a CommonJS module would run. A cache
// V8 rejects (other V8 version or flags) costs boot time, never the boot: the bundle compiles from source.
'use strict';
const { getAsset, getRawAsset } = require('node:sea');
const { Script } = require('node:vm');

const script = new Script(getAsset('machined.js', 'utf8'), {
  filename: 'machined.js',
  cachedData: new Uint8Array(getRawAsset('machined.cache')),
});
if (script.cachedDataRejected)
  process.stderr.write('[machined] code cache rejected: compiling from source\n');
script.runInThisContext()(exports, require, module, __filename, __dirname);
