/**
 * Loaded into every Node process of a run (`NODE_OPTIONS=--import <this file>`, with OFFLINE_GUARD_LOG naming a
 * file): each outgoing TCP connection and each name looked up is appended to the log as one JSON line,
 * `{ "kind": "connect" | "lookup", "host", "port", "loopback" }`, before it is attempted, after a line
 * `{ "kind": "process", "pid" }` when the guard is loaded. A test reads the log to show that nothing but loopback
 * was reached, and that the guard was there at all (the process lines).
 */
import { appendFileSync } from "node:fs";
import dns from "node:dns";
import net from "node:net";

const log = process.env.OFFLINE_GUARD_LOG;
// Loopback, and the unspecified addresses a server resolves to listen on every interface (vite's dev server does):
// neither leaves the machine.
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+|0\.0\.0\.0|::|(0{1,4}:){7}0{1,4})$/i;

function note(kind, host, port) {
  if (!log) return;
  const name = String(host ?? "localhost");
  appendFileSync(log, `${JSON.stringify({ kind, host: name, port: port ?? null, loopback: LOOPBACK.test(name) })}\n`);
}

if (log) appendFileSync(log, `${JSON.stringify({ kind: "process", pid: process.pid, loopback: true })}\n`);

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const first = args[0];
  const options = Array.isArray(first) ? first[0] : first;
  if (options && typeof options === "object") {
    if (options.path == null) note("connect", options.host, options.port);
  } else if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first)))
    note("connect", typeof args[1] === "string" ? args[1] : "localhost", Number(first));
  return connect.apply(this, args);
};

const lookup = dns.lookup;
dns.lookup = function guardedLookup(hostname, ...rest) {
  note("lookup", hostname, null);
  return lookup.call(this, hostname, ...rest);
};
const promisesLookup = dns.promises.lookup;
dns.promises.lookup = function guardedPromisesLookup(hostname, ...rest) {
  note("lookup", hostname, null);
  return promisesLookup.call(this, hostname, ...rest);
};
