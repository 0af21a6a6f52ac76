import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { HOST_TERMINATION_SIGNALS, processGroupRegistry, signalProcessGroup } from './process-group-registry.js';

/** A stand-in for Node's `process`: an emitter that records what is sent by `kill`. */
class FakeHost extends EventEmitter {
  readonly pid = 4242;
  readonly kills: Array<[number, string | number | undefined]> = [];
  kill(pid: number, signal?: string | number): true {
    if (pid === -404) throw Object.assign(new Error('kill ESRCH'), { code: 'ESRCH' });
    this.kills.push([pid, signal]);
    return true;
  }
}

describe('processGroupRegistry', () => {
  it('is one registry per host, whichever package asks, with one set of hooks', () => {
    const host = new FakeHost();
    const a = processGroupRegistry(host);
    const b = processGroupRegistry(host);
    expect(b).toBe(a);
    expect(host.listenerCount('exit')).toBe(0);
    a.register(1, () => undefined);
    b.register(2, () => undefined);
    expect(a.size).toBe(2);
    expect(host.listenerCount('exit')).toBe(1);
    for (const signal of HOST_TERMINATION_SIGNALS) expect(host.listenerCount(signal)).toBe(1);
    expect(processGroupRegistry(new FakeHost())).not.toBe(a);
  });

  it('ends every registered group on exit, once, and forgets unregistered ones', () => {
    const host = new FakeHost();
    const registry = processGroupRegistry(host);
    const ended: number[] = [];
    for (const pgid of [10, 11, 12]) registry.register(pgid, () => ended.push(pgid));
    registry.unregister(11);
    host.emit('exit');
    expect(ended).toEqual([10, 12]);
    expect(registry.size).toBe(0);
    host.emit('exit');
    expect(ended).toEqual([10, 12]);
  });

  it.each(HOST_TERMINATION_SIGNALS)('on %s with no other listener: ends the groups, then lets the signal kill the host', (signal) => {
    const host = new FakeHost();
    const registry = processGroupRegistry(host);
    const ended: number[] = [];
    registry.register(20, () => ended.push(20));
    host.emit(signal, signal);
    expect(ended).toEqual([20]);
    expect(host.listenerCount(signal)).toBe(0);
    expect(host.kills).toEqual([[host.pid, signal]]);
  });

  it('steps aside when the host handles the signal itself (its exit then ends the groups)', () => {
    const host = new FakeHost();
    const registry = processGroupRegistry(host);
    const ended: number[] = [];
    registry.register(30, () => ended.push(30));
    host.on('SIGTERM', () => undefined);
    host.emit('SIGTERM', 'SIGTERM');
    expect(ended).toEqual([]);
    expect(host.kills).toEqual([]);
    host.emit('exit');
    expect(ended).toEqual([30]);
  });

  it('signalProcessGroup signals the negative pgid and reports a group that is gone', () => {
    const host = new FakeHost();
    expect(signalProcessGroup(host, 77, 'SIGTERM')).toBe(true);
    expect(host.kills).toEqual([[-77, 'SIGTERM']]);
    expect(signalProcessGroup(host, 404, 'SIGKILL')).toBe(false);
  });
});
