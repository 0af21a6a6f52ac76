import { readdirSync, readFileSync } from 'node:fs';

/** Live (non-zombie) pids whose process group is `pgid`, read from /proc. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // `pid (comm) state ppid pgrp ...`; comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') members.push(Number(name));
  }
  return members;
}

/** Waits until the group has no live member (SIGKILL delivery is asynchronous); returns what is left. */
export async function waitGroupGone(pgid: number, maxWaitMs = 5000): Promise<number[]> {
  const until = Date.now() + maxWaitMs;
  let left = groupMembers(pgid);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = groupMembers(pgid);
  }
  return left;
}
