import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';

/**
 * A child started through the spawn helper (or directly): the subset of `ChildProcess` the
 * ripgrep engine and the process runner use. Events: `spawn` (then `pid` is set), `error` (it
 * could not start), `exit` (code, signal), `close` (exit code, once it exited and both streams
 * closed).
 */
export interface HelperChild extends EventEmitter {
  /** The child's pid, once `spawn` was emitted (at once for a direct spawn). */
  readonly pid: number | undefined;
  readonly stdout: Readable;
  readonly stderr: Readable;
  kill(signal: 'SIGKILL'): void;
}

/**
 * One output stream of a helper child: the chunks the helper relayed as messages, then, when
 * the output went past the relay limit, the data of the pipe the helper handed over, read with
 * the pipe's own backpressure.
 */
class RelayedStream extends Readable {
  #pipe: Readable | null = null;
  #eof = false;

  override _read(): void {
    this.#pipe?.resume();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#pipe?.destroy();
    callback(error);
  }

  /** A chunk relayed as a message (at most the relay limit per stream: not flow-controlled). */
  relayed(chunk: Buffer): void {
    if (!this.#eof) this.push(chunk);
  }

  /** The stream's end, relayed. */
  ended(): void {
    if (this.#eof) return;
    this.#eof = true;
    this.push(null);
  }

  /** The helper is gone: a stream still relayed ends here (one read from its pipe ends with it). */
  orphaned(): void {
    if (this.#pipe === null) this.ended();
  }

  /** The rest of the stream: the pipe itself. */
  adopt(pipe: Readable): void {
    this.#pipe = pipe;
    pipe.on('error', () => undefined);
    if (this.destroyed || this.#eof) {
      pipe.destroy();
      return;
    }
    pipe.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) pipe.pause();
    });
    pipe.once('end', () => this.ended());
    // A pipe that closes without its end (destroyed, an error) ends this stream too.
    pipe.once('close', () => {
      if (!this.#eof) this.destroy();
    });
  }
}

/** A child of the helper: its events come from the helper's reports (see `spawn-helper-source.ts`). */
export class HelperChildImpl extends EventEmitter implements HelperChild {
  readonly stdout = new RelayedStream();
  readonly stderr = new RelayedStream();
  pid: number | undefined;
  #exit: { code: number | null } | null = null;
  #open = 2;
  #killed = false;

  /**
   * @param id the helper's id of the child.
   * @param onKill asks the helper to SIGKILL the child (its group when detached).
   * @param onRelease called once when the host stops waiting for the child (closed or failed).
   */
  constructor(
    readonly id: number,
    private readonly onKill: () => void,
    private readonly onRelease: () => void,
  ) {
    super();
    for (const stream of [this.stdout, this.stderr]) {
      stream.on('error', () => undefined);
      stream.once('close', () => {
        this.#open -= 1;
        this.#maybeClose();
      });
    }
  }

  // A stream nobody reads would never see its end (and `close` never come): one the caller set no
  // reading mode on by the time the helper reports on it (a later turn of the loop) is drained.
  #stream(which: 'stdout' | 'stderr'): RelayedStream {
    const stream = this[which];
    if (stream.readableFlowing === null) stream.resume();
    return stream;
  }

  /** The helper forked the child. */
  spawned(pid: number): void {
    this.pid = pid;
    this.emit('spawn');
  }

  /** Output relayed by the helper. */
  data(which: 'stdout' | 'stderr', chunk: Buffer): void {
    this.#stream(which).relayed(chunk);
  }

  /** A stream's end, relayed by the helper. */
  ended(which: 'stdout' | 'stderr'): void {
    this.#stream(which).ended();
  }

  /** The rest of a stream, as its pipe. */
  pipe(which: 'stdout' | 'stderr', pipe: Readable): void {
    const stream = this.#stream(which);
    stream.adopt(pipe);
    if (this.#killed) stream.destroy();
  }

  exited(code: number | null, signal: string | null): void {
    this.#exit = { code };
    this.emit('exit', code, signal);
    this.#maybeClose();
  }

  /** It could not start, or the helper exited under it. */
  failed(error: Error): void {
    if (!this.release()) return;
    this.emit('error', error);
  }

  /** The helper exited under the child: `error` (code `HELPER_LOST`), and the relayed streams end. */
  lost(error: Error): void {
    this.failed(error);
    this.stdout.orphaned();
    this.stderr.orphaned();
  }

  kill(): void {
    if (this.#killed) return;
    this.#killed = true;
    if (this.#exit === null) this.onKill();
  }

  #released = false;
  /** Stops waiting for the child; false when that happened already. */
  release(): boolean {
    if (this.#released) return false;
    this.#released = true;
    this.onRelease();
    return true;
  }

  #maybeClose(): void {
    if (this.#exit === null || this.#open > 0) return;
    if (!this.release()) return;
    this.emit('close', this.#exit.code);
  }
}
