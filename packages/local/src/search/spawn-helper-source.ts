import { sweepMarkedProcesses } from '@a3s-lab/code-core/util';

/**
 * Bytes of each stream the helper relays as IPC messages before it hands the rest of the stream
 * over as the pipe itself (64 KiB). Most commands print less: their whole call is a spawn
 * message, a `spawned` report, the output and the exit report, no descriptor passed (each one
 * passed is a round trip: Node's IPC sends the next message only once the host acknowledged the
 * descriptor). A stream that goes on past this is read by the host from its pipe, with the
 * pipe's backpressure, so the relay never buffers more than this per stream.
 */
export const RELAY_LIMIT_BYTES = 64 * 1024;

/**
 * The source of the spawn helper (see `spawn-helper.ts`), run with `node -e`: it needs no file of
 * its own in the bundled packages. Protocol, host to helper: `spawn` (id, command, args, cwd,
 * env, detached), `kill` (id), `sweep` (id, markers, firstPid).
 * Helper to host: `ready`; per child `spawned` (pid), `data` (stream, bytes as a latin1 string),
 * `pipe` (stream, with the pipe as the message's handle: the rest of the stream), `end` (stream),
 * `exit` (code, signal) or `error` (message, code); `swept` (id, found or error).
 */
export const HELPER_SOURCE = String.raw`
const { spawn } = require('node:child_process');
const fs = require('node:fs');
// A transpiler that keeps function names (tsx, esbuild's keepNames) wraps them in __name.
const __name = (target) => target;
const sweepMarkedProcesses = (${sweepMarkedProcesses.toString()});
const RELAY_LIMIT = ${RELAY_LIMIT_BYTES};
// The sweep reads three small /proc files of every process: into one reused buffer, without
// readFileSync's fstat and fresh buffer per file (a procfs read returns less than asked only at
// the end of the file).
let scratch = Buffer.allocUnsafe(64 * 1024);
const readProcFile = (path, encoding) => {
  const fd = fs.openSync(path, 'r');
  try {
    let filled = 0;
    for (;;) {
      if (filled === scratch.length) {
        const bigger = Buffer.allocUnsafe(scratch.length * 2);
        scratch.copy(bigger, 0, 0, filled);
        scratch = bigger;
      }
      const wanted = scratch.length - filled;
      const read = fs.readSync(fd, scratch, filled, wanted, null);
      filled += read;
      if (read < wanted) break;
    }
    return scratch.toString(encoding, 0, filled);
  } finally {
    fs.closeSync(fd);
  }
};
const table = { selfPid: process.pid, readdirSync: (path) => fs.readdirSync(path), readFileSync: readProcFile, kill: (pid, signal) => process.kill(pid, signal) };
// A host that went away mid-send is not an error here: 'disconnect' ends the helper.
const send = (message, handle) => {
  if (process.connected) process.send(message, handle, undefined, () => undefined);
  else handle?.destroy?.();
};
const children = new Map();
let sweeps = [];
const sweepAll = () => {
  const batch = sweeps;
  sweeps = [];
  const markers = [...new Set(batch.flatMap((request) => request.markers))];
  // The lowest first pid covers every call of the batch.
  const firstPid = Math.min(...batch.map((request) => request.firstPid ?? 0));
  let found;
  try {
    found = sweepMarkedProcesses(table, markers, firstPid);
  } catch (error) {
    // The host sweeps itself.
    for (const request of batch) send({ type: 'swept', id: request.id, error: String(error && error.message) });
    return;
  }
  const byMarker = new Map(markers.map((marker, index) => [marker, found[index]]));
  for (const request of batch) send({ type: 'swept', id: request.id, found: request.markers.map((marker) => byMarker.get(marker) ?? []) });
};
const killChild = (child, detached) => {
  try {
    if (detached && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {}
};
// The first RELAY_LIMIT bytes go as messages; then reading stops and the pipe itself goes to the
// host. Not a byte more is read here, and none is left behind: the read stops inside the
// callback of a chunk the stream emitted straight from the pipe (nothing buffered behind it).
const relay = (id, name, stream) => {
  if (!stream) return;
  let relayed = 0;
  let handedOver = false;
  stream.on('data', (chunk) => {
    if (handedOver) return;
    send({ type: 'data', id, stream: name, data: chunk.toString('latin1') });
    relayed += chunk.length;
    if (relayed < RELAY_LIMIT || stream.readableLength > 0 || !stream._handle) return;
    handedOver = true;
    stream._handle.readStop();
    send({ type: 'pipe', id, stream: name }, stream);
  });
  stream.on('end', () => {
    if (!handedOver) send({ type: 'end', id, stream: name });
  });
  stream.on('error', () => undefined);
};
process.on('message', (message) => {
  if (message.type === 'kill') { const entry = children.get(message.id); if (entry) killChild(entry.child, entry.detached); return; }
  if (message.type === 'sweep') {
    if (sweeps.length === 0) setImmediate(sweepAll);
    sweeps.push(message);
    return;
  }
  if (message.type !== 'spawn') return;
  const { id, command, args, cwd, env } = message;
  const detached = message.detached === true;
  let child;
  try {
    child = spawn(command, args, { cwd, env, detached, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  } catch (error) {
    send({ type: 'error', id, message: String(error && error.message), code: error && error.code });
    return;
  }
  children.set(id, { child, detached });
  // The pid exists as soon as the fork succeeded (a failed exec still reports 'error').
  if (child.pid !== undefined) send({ type: 'spawned', id, pid: child.pid });
  relay(id, 'stdout', child.stdout);
  relay(id, 'stderr', child.stderr);
  child.once('error', (error) => {
    children.delete(id);
    send({ type: 'error', id, message: String(error && error.message), code: error && error.code });
  });
  child.once('exit', (code, signal) => {
    children.delete(id);
    send({ type: 'exit', id, code, signal });
  });
});
send({ type: 'ready', id: 0 });
process.on('disconnect', () => {
  for (const { child, detached } of children.values()) killChild(child, detached);
  process.exit(0);
});
// Nothing it started may outlive it, even when it fails.
process.on('uncaughtException', (error) => {
  for (const { child, detached } of children.values()) killChild(child, detached);
  process.stderr.write('a3s spawn helper: ' + String(error && error.stack) + '\n');
  process.exit(1);
});
`;
