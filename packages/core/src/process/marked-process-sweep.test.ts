import { describe, expect, it } from 'vitest';

import { sweepMarkedProcesses } from './marked-process-sweep.js';
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
  });

  it('finds nothing without markers or without /proc', () => {
    expect(sweepMarkedProcesses(table({ 5: { environ: 'M=a\0' } }), [])).toEqual([]);
    const none = { ...table({}), readdirSync: () => { throw new Error('ENOENT'); } };
    expect(sweepMarkedProcesses(none, ['M=a'])).toEqual([[]]);
  });
});
