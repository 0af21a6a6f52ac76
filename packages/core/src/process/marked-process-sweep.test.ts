import { describe, expect, it } from 'vitest';

import { sweepFirstPid, sweepMarkedProcesses, tasksCreatedSinceBoot } from './marked-process-sweep.js';
import type { ProcessTable } from './marked-process-sweep.js';

/** A process table of fake /proc entries: pid -> environ, stat, comm (a missing one is unreadable). */
function table(processes: Record<number, { environ?: string; stat?: string; comm?: string }>, selfPid = 1): ProcessTable & { killed: number[] } {
  const killed: number[] = [];
  return {
    selfPid,
    killed,
    readdirSync: () => ['self', 'sys', ...Object.keys(processes)],
    readFileSync: (path) => {
      const [, , pid, file] = path.split('/');
      const value = processes[Number(pid)]?.[file as 'environ' | 'stat' | 'comm'];
      if (value === undefined) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
      return value;
    },
    kill: (pid) => {
      if (pid === 99) throw new Error('ESRCH');
      killed.push(pid);
    },
  };
}

describe('sweepMarkedProcesses', () => {
  it('kills, in one pass, the processes carrying each marker and reports their groups', () => {
    const host = table({
      1: { environ: 'M=a\0', stat: '1 (self) S 0 1 1' },
      10: { environ: 'HOME=/\0M=a\0', stat: '10 (a (b) c) S 1 10 10', comm: 'a (b) c\n' },
      11: { environ: 'M=b\0X=1\0', stat: '11 (sh) S 1 42 42', comm: 'sh\n' },
      12: { environ: 'M=ab\0' },
      13: {},
      14: { environ: 'M=a\0' },
      99: { environ: 'M=b\0', stat: '99 (gone) Z 1 99 99' },
    });
    const found = sweepMarkedProcesses(host, ['M=a', 'M=b', 'M=c']);
    expect(found).toEqual([
      [
        { pid: 10, command: 'a (b) c', pgid: 10 },
        { pid: 14, command: '?', pgid: null },
      ],
      [{ pid: 11, command: 'sh', pgid: 42 }],
      [],
    ]);
    expect(host.killed).toEqual([10, 11, 14]);
  });

  it('is self-contained: its source alone works (the local spawn helper embeds it)', () => {
    const __name = <T>(target: T): T => target;
    const rebuilt = new Function('__name', `return (${sweepMarkedProcesses.toString()});`)(__name) as typeof sweepMarkedProcesses;
    const host = table({ 7: { environ: 'M=a\0', stat: '7 (x) S 1 7 7', comm: 'x\n' } });
    expect(rebuilt(host, ['M=a'])).toEqual([[{ pid: 7, command: 'x', pgid: 7 }]]);
    // From a first pid on: the ones below it are not read.
    expect(rebuilt(host, ['M=a'], 9)).toEqual([[]]);
    expect(rebuilt(host, ['M=a'], 7)).toEqual([[{ pid: 7, command: 'x', pgid: 7 }]]);
  });

  describe('with a window', () => {
    /** The system files the window is checked against: this process's pid in /proc, tasks created and alive, the last pid, pid_max. */
    interface SystemView {
      readonly selfInProc?: number;
      readonly created?: number;
      readonly tasks?: number;
      readonly lastPid?: number;
      readonly pidMax?: number;
    }
    /** Processes 5, 20 (the leader's group) and 30, each carrying M=a; records whose environment was read. */
    function windowed(view: SystemView = {}): ProcessTable & { read: number[]; killed: number[] } {
      const { selfInProc = 2, created = 1_000_120, tasks = 150, lastPid = 40, pidMax = 32_768 } = view;
      const inner = table({ 5: { environ: 'M=a\0', stat: '5 (old) S 1 5 5' }, 20: { environ: 'M=a\0', stat: '20 (sh) S 1 20 20' }, 30: { environ: 'M=a\0', stat: '30 (d) S 1 30 30' } }, 2);
      const read: number[] = [];
      const files: Record<string, string> = {
        '/proc/self/stat': `${selfInProc} (node) R 1 2 2`,
        '/proc/stat': `cpu  1 2 3\nintr 5 6\nprocesses ${created}\nprocs_running 1\n`,
        '/proc/loadavg': `0.10 0.20 0.30 2/${tasks} ${lastPid}\n`,
        '/proc/sys/kernel/pid_max': `${pidMax}\n`,
      };
      return {
        ...inner,
        readFileSync: (path, encoding) => {
          const file = files[path];
          if (file !== undefined) return file;
          if (path.endsWith('/environ')) read.push(Number(path.split('/')[2]));
          return inner.readFileSync(path, encoding);
        },
        read,
      };
    }
    const window = { leaderPid: 20, tasksCreatedBefore: 1_000_000 };

    it('reads only the processes from the leader on when the pids since its own cannot have wrapped', () => {
      const host = windowed();
      expect(sweepFirstPid(host, window)).toBe(20);
      expect(sweepMarkedProcesses(host, ['M=a'], sweepFirstPid(host, window))).toEqual([[{ pid: 20, command: '?', pgid: 20 }, { pid: 30, command: '?', pgid: 30 }]]);
      expect(host.read).toEqual([20, 30]);
      expect(host.killed).toEqual([20, 30]);
    });

    it('reads every process when the pid counter wrapped below the leader', () => {
      const host = windowed({ lastPid: 12 });
      expect(sweepFirstPid(host, window)).toBe(0);
      expect(sweepMarkedProcesses(host, ['M=a'], sweepFirstPid(host, window))[0]?.map((entry) => entry.pid)).toEqual([5, 20, 30]);
      expect(host.read).toEqual([5, 20, 30]);
    });

    it('reads every process when enough tasks were created since to have gone round all the pids', () => {
      // (32768 - 150) / 2 = 16309 creations could cycle past the leader back to above it.
      const host = windowed({ created: 1_016_309 });
      sweepMarkedProcesses(host, ['M=a'], sweepFirstPid(host, window));
      expect(host.read).toEqual([5, 20, 30]);
      const under = windowed({ created: 1_016_308 });
      sweepMarkedProcesses(under, ['M=a'], sweepFirstPid(under, window));
      expect(under.read).toEqual([20, 30]);
    });

    it('reads every process when /proc is not this process\'s view, or the system files are unreadable or odd', () => {
      for (const view of [{ selfInProc: 7 }, { created: 999_999 }, { pidMax: Number.NaN }] satisfies SystemView[]) {
        const host = windowed(view);
        sweepMarkedProcesses(host, ['M=a'], sweepFirstPid(host, window));
        expect(host.read, JSON.stringify(view)).toEqual([5, 20, 30]);
      }
      const unreadable = windowed();
      const failing: ProcessTable = { ...unreadable, readFileSync: (path, encoding) => (path === '/proc/loadavg' ? (() => { throw new Error('EACCES'); })() : unreadable.readFileSync(path, encoding)) };
      sweepMarkedProcesses(failing, ['M=a'], sweepFirstPid(failing, window));
      expect(unreadable.read).toEqual([5, 20, 30]);
    });

    it('counts created tasks from /proc/stat (null without it)', () => {
      expect(tasksCreatedSinceBoot(windowed())).toBe(1_000_120);
      expect(tasksCreatedSinceBoot(table({}))).toBeNull();
    });
  });

  it('finds nothing without markers or without /proc', () => {
    expect(sweepMarkedProcesses(table({ 5: { environ: 'M=a\0' } }), [])).toEqual([]);
    const none = { ...table({}), readdirSync: () => { throw new Error('ENOENT'); } };
    expect(sweepMarkedProcesses(none, ['M=a'])).toEqual([[]]);
  });
});
