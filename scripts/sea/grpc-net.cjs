// node:net as grpc-js sees it in the single executable: the same module, with isIPv6 and isIP answering
// a string without a colon without Node's IPv6 regular expression (every IPv6 address has a colon).
// grpc-js formats each address it binds with isIPv6, and Node compiles that large expression on its
// first use: about 65 ms of every boot under TCG for machined's IPv4 bind address. The answers are
// node:net's for every input (test/scripts/sea-net.test.ts).
'use strict';
const net = require('node:net');

const isIPv6 = (input) => String(input).includes(':') && net.isIPv6(input);
const isIP = (input) => (net.isIPv4(input) ? 4 : isIPv6(input) ? 6 : 0);

module.exports = Object.create(net, {
  isIPv6: { value: isIPv6, enumerable: true },
  isIP: { value: isIP, enumerable: true },
});
