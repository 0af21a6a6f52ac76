import { performance } from 'node:perf_hooks';

import { toHostFailure } from '@a3s-lab/code-core';
import type { ExecResult } from '@a3s-lab/code-core';

import { abortError } from '@a3s-lab/code-core/util';
import { OutputCapture } from './output-capture.js';
import { registerProcessGroup, signalProcessGroup, unregisterProcessGroup } from './process-registry.js';
import { newProcessMarker, PROCESS_MARKER_ENV, sweepAfterCall, tasksCreatedNow } from './process-sweep.js';
import { HELPER_LOST, releaseHelperChild, spawnThroughHelper } from './search/spawn-helper.js';
import type { HelperChild } from './search/spawn-helper.js';

/** Default byte budget across stdout and stderr together (1 MiB: half head, half tail). */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Default time between SIGTERM and SIGKILL to the process group. */
export const DEFAULT_KILL_GRACE_MS = 2000;
/**
 * Default time the pipes may stay open after the main child exited. A background grandchild that
 * inherited stdout would otherwise keep the call waiting; after this window the group is killed
 * and reading stops.
 */
export const DEFAULT_DRAIN_GRACE_MS = 250;
// After SIGKILL a process normally disappears at once; a process stuck in uninterruptible sleep
// must still not hold the call forever.
const AFTER_KILL_WAIT_MS = 1000;

/** Options of {@link runProcess}. */
export interface RunProcessOptions {
  /** Executable, resolved through PATH. */
  readonly file: string;
  /** Arguments passed as an argv array (never through a shell). */
  readonly args: readonly string[];
  /** Working directory (absolute, already confined). */
  readonly cwd: string;
  /** The complete child environment (see `buildChildEnv`). */
  readonly env: Readonly<Record<string, string>>;
  /** Deadline covering spawning, draining the pipes and waiting for the child. */
  readonly timeoutMs: number;
  /** Byte budget across both streams; default {@link DEFAULT_MAX_OUTPUT_BYTES}. */
  readonly maxOutputBytes?: number;
  /** Cancels the run: the group is killed and the result has `cancelled: true`. */
  readonly abortSignal?: AbortSignal;
  /** SIGTERM -> SIGKILL delay; default {@link DEFAULT_KILL_GRACE_MS}. */
  readonly killGraceMs?: number;
  /** Pipe drain window after the main child exits; default {@link DEFAULT_DRAIN_GRACE_MS}. */
  readonly drainGraceMs?: number;
  /** Called with the group id (the leader's pid) right after spawning. */
  readonly onSpawn?: (pgid: number) => void;
  /** Called when the run's group is registered/unregistered, so a backend can kill its own groups. */
  readonly groups?: Set<number>;
  /** Live output, decoded per stream (see `ExecOptions.onOutput`). */
  readonly onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
  /**
   * The leader is the init of a pid namespace of its own (bubblewrap's `--unshare-pid`): once its
   * exit is seen, the kernel has killed and reaped every process of the namespace (a pid
   * namespace ends with its init, and its init's parent is told only after that), so none can
   * have escaped and the marker sweep is left out. A run that ends without the leader's exit
   * report (the spawn helper lost, a leader stuck after SIGKILL) is still swept.
   */
  readonly ownPidNamespace?: boolean;
}

/**
 * Runs one process in its own process group (detached), stdin from /dev/null, no TTY, with
 * bounded head+tail capture. On timeout or abort the whole group gets SIGTERM, then SIGKILL after
 * the grace; when the main child exits, the pipes get a short drain window, then the group is
 * killed so no background process outlives the call. Descendants that left the group (`setsid`,
 * double forks) are found by a per-call environment marker and killed too, and reported in
 * `killedEscapedProcesses`. Never rejects once spawned: timeouts and
 * cancellation are reported in the result.
 *
 * @throws AbortError when the signal is already aborted; HostFailure when spawning fails.
 */
export function runProcess(options: RunProcessOptions): Promise<ExecResult> {
  const started = performance.now();
  if (options.abortSignal?.aborted === true) return Promise.reject(abortError(options.abortSignal));
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const drainGraceMs = options.drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS;
  const capture = new OutputCapture(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);

  const marker = newProcessMarker();
  // Read before the spawn: with the leader's pid, it bounds where the sweep looks (an own pid
  // namespace needs no sweep once its leader exits).
  const tasksBefore = options.ownPidNamespace === true ? null : tasksCreatedNow();
  return new Promise<ExecResult>((resolve, reject) => {
    let child: HelperChild;
    try {
      // Through the spawn helper: a fork of this (large) process would block its event loop.
      child = spawnThroughHelper(options.file, options.args, { cwd: options.cwd, env: { ...options.env, [PROCESS_MARKER_ENV]: marker }, detached: true });
    } catch (error) {
      reject(toHostFailure(error));
      return;
    }
    // Known at once for a direct spawn, on `spawn` through the helper. A timeout or abort before
    // then is acted on as soon as the group exists.
    let pid: number | undefined;

    const { stdout, stderr } = child;
    let exited = false;
    // The leader's own exit report (not a lost helper's stand-in).
    let leaderExited = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let stdoutOpen = true;
    let stderrOpen = true;
    let timedOut = false;
    let cancelled = false;
    let terminating = false;
    let done = false;
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, action: () => void): void => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        action();
      }, ms);
      timers.add(timer);
    };
    const stopTimers = (): void => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      options.abortSignal?.removeEventListener('abort', onAbort);
    };

    const finish = (group: number): void => {
      if (done) return;
      done = true;
      stopTimers();
      // Whatever is left of the group (background jobs, a grandchild holding a pipe) goes now,
      // and so does every descendant that left the group (setsid, double fork): found by marker.
      signalProcessGroup(group, 'SIGKILL');
      stdout.destroy();
      stderr.destroy();
      child.removeAllListeners();
      child.on('error', () => undefined);
      releaseHelperChild(child);
      const output = capture.finish();
      const window = tasksBefore === null ? undefined : { leaderPid: group, tasksCreatedBefore: tasksBefore };
      const swept = options.ownPidNamespace === true && leaderExited ? Promise.resolve([]) : sweepAfterCall(marker, group, window);
      void swept.then((escaped) => {
        unregisterProcessGroup(group);
        options.groups?.delete(group);
        resolve({
          ...output,
          exitCode,
          signal: exitSignal,
          timedOut,
          cancelled,
          durationMs: Math.round(performance.now() - started),
          ...(escaped.length === 0 ? {} : { killedEscapedProcesses: escaped }),
        });
      });
    };

    const signalGroup = (group: number): void => {
      signalProcessGroup(group, 'SIGTERM');
      later(killGraceMs, () => {
        signalProcessGroup(group, 'SIGKILL');
        later(AFTER_KILL_WAIT_MS, () => finish(group));
      });
    };
    const terminate = (): void => {
      if (terminating || done) return;
      terminating = true;
      if (pid !== undefined) signalGroup(pid);
    };

    function onAbort(): void {
      if (done) return;
      cancelled = true;
      terminate();
    }

    const maybeFinish = (): void => {
      if (exited && !stdoutOpen && !stderrOpen && pid !== undefined) finish(pid);
    };

    const spawned = (group: number): void => {
      pid = group;
      registerProcessGroup(group, marker);
      options.groups?.add(group);
      options.onSpawn?.(group);
      if (terminating) signalGroup(group);
      if (exited && (stdoutOpen || stderrOpen)) later(drainGraceMs, () => finish(group));
      else maybeFinish();
    };

    const onOutput = options.onOutput;
    if (onOutput === undefined) {
      stdout.on('data', (chunk: Buffer) => capture.push('stdout', chunk));
      stderr.on('data', (chunk: Buffer) => capture.push('stderr', chunk));
    } else {
      const decoders = { stdout: new TextDecoder('utf-8'), stderr: new TextDecoder('utf-8') };
      const forward = (stream: 'stdout' | 'stderr', chunk: Buffer): void => {
        capture.push(stream, chunk);
        const text = decoders[stream].decode(chunk, { stream: true });
        if (text.length === 0) return;
        try {
          onOutput(stream, text);
        } catch {
          // A failing progress listener must not break the run.
        }
      };
      stdout.on('data', (chunk: Buffer) => forward('stdout', chunk));
      stderr.on('data', (chunk: Buffer) => forward('stderr', chunk));
    }
    stdout.on('close', () => {
      stdoutOpen = false;
      maybeFinish();
    });
    stderr.on('close', () => {
      stderrOpen = false;
      maybeFinish();
    });
    stdout.on('error', () => undefined);
    stderr.on('error', () => undefined);
    child.on('error', (error: Error) => {
      if (done) return;
      if (pid !== undefined) {
        // After a successful spawn only a lost spawn helper is reported here (a failed kill is
        // not): its exit report will not come, nor will output it relayed, so the call ends (its
        // group is killed) once the streams close, at most a drain window later (a pipe it had
        // handed over stays open while the command runs), exit code unknown, said on stderr.
        if (!exited && (error as { code?: unknown }).code === HELPER_LOST) {
          exited = true;
          capture.push('stderr', Buffer.from('\n[the spawn helper exited during the call: its exit status is unknown]\n'));
          const group = pid;
          later(drainGraceMs, () => finish(group));
          maybeFinish();
        }
        return;
      }
      done = true;
      stopTimers();
      releaseHelperChild(child);
      reject(toHostFailure(error));
    });
    child.on('exit', (code: number | null, signal: string | null) => {
      exited = true;
      leaderExited = true;
      exitCode = code;
      exitSignal = signal;
      if (pid === undefined) return;
      if (!stdoutOpen && !stderrOpen) {
        finish(pid);
        return;
      }
      const group = pid;
      later(drainGraceMs, () => finish(group));
    });
    if (child.pid !== undefined) spawned(child.pid);
    else child.once('spawn', () => child.pid !== undefined && spawned(child.pid));

    later(Math.max(0, options.timeoutMs - (performance.now() - started)), () => {
      if (done) return;
      timedOut = true;
      if (exited && pid !== undefined) finish(pid);
      else terminate();
    });
    options.abortSignal?.addEventListener('abort', onAbort, { once: true });
  });
}
