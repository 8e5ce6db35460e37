import { readdirSync, readFileSync } from 'node:fs';

/** A process and all its descendants, from /proc (the distributed launcher and its stage processes); [pid] without /proc. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // The parent pid is the second field after the parenthesised command name, which may contain spaces.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
      } catch {
        // Gone between the listing and the read.
      }
    }
  } catch {
    return [pid];
  }
  const tree: number[] = [];
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    tree.push(next);
    pending.push(...(children.get(next) ?? []));
  }
  return tree;
}

/** SIGKILL to a process and its descendants, children first seen before the parent dies. */
export function killTree(pid: number): void {
  for (const member of processTree(pid).reverse()) {
    try {
      process.kill(member, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
