// Preloaded (NODE_OPTIONS=--require, so child processes too) into a tool that must work offline: any attempt to open a socket or
// fetch is refused and reported on stderr, so the test that runs the tool can fail on it.
const net = require('node:net');
const tls = require('node:tls');
const where = (target) => (target && typeof target === 'object' ? `${target.host ?? target.hostname ?? target.path}:${target.port ?? ''}` : String(target));
const refuse = (what) => {
  process.stderr.write(`NETWORK ATTEMPT: ${what}\n`);
  throw new Error(`network refused offline: ${what}`);
};
net.Socket.prototype.connect = function connect(...args) {
  return refuse(`connect ${where(args[0])}`);
};
tls.connect = (...args) => refuse(`tls ${where(args[0])}`);
globalThis.fetch = async (input) => refuse(`fetch ${String(input instanceof Request ? input.url : input)}`);
