// CPU seconds each process of a bench spent over a phase (utime + stime from /proc/<pid>/stat), by role:
// which one is short of CPU while the events flow (README "Part 26"). Linux only; elsewhere empty.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS = 100; // USER_HZ on Linux

function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

/** A child's role from its command line (the gateway bundle or sources, or the helper script). */
function role(child: ChildProcess): string {
  const args = child.spawnargs.join(' ');
  if (/gateway\/(dist\/main\.js|src\/main\.ts)/.test(args)) return 'gateway';
  if (/\bhaproxy\b/.test(child.spawnfile)) return 'haproxy';
  return /([\w-]+)\.(?:ts|mjs)\b/.exec(args)?.[1] ?? 'other';
}

/** The shared servers' processes (other helpers' work is in their figures too). */
function sharedPids(): { role: string; pid: number }[] {
  const out: { role: string; pid: number }[] = [];
  for (const name of ['redis-server', 'postgres']) {
    try {
      for (const pid of execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).split('\n').filter(Boolean))
        out.push({ role: name, pid: Number(pid) });
    } catch {
      // none
    }
  }
  return out;
}

/** The whole machine's busy CPU seconds (every process's, on every core; /proc/stat), null where unknown. */
function machineBusySeconds(): number | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq: all but idle and iowait are busy.
    const [user, nice, system, , , irq, softirq] = fields;
    return (user + nice + system + irq + softirq) / TICKS;
  } catch {
    return null;
  }
}

/**
 * Starts a measurement; the function it answers gives each role's CPU seconds (one entry per process)
 * since, and `machine`: what every process on the machine used (this bench's and anyone else's).
 */
export function startCpuWindow(children: ChildProcess[]): () => Record<string, number[]> {
  const procs = [
    ...children
      .filter((c) => c.pid !== undefined && c.exitCode === null && c.signalCode === null)
      .map((c) => ({ role: role(c), pid: c.pid! })),
    ...sharedPids(),
  ];
  const before = procs.map((p) => cpuSeconds(p.pid));
  const machineBefore = machineBusySeconds();
  const started = performance.now();
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const out: Record<string, number[]> = { wallSeconds: [Math.round(seconds * 100) / 100] };
    const machineAfter = machineBusySeconds();
    if (machineBefore !== null && machineAfter !== null)
      out.machine = [Math.round((machineAfter - machineBefore) * 100) / 100];
    procs.forEach((p, i) => {
      const after = cpuSeconds(p.pid);
      if (after === null || before[i] === null) return;
      const used = Math.round((after - before[i]!) * 100) / 100;
      if (p.role === 'postgres') out.postgres = [Math.round(((out.postgres?.[0] ?? 0) + used) * 100) / 100];
      else (out[p.role] ??= []).push(used);
    });
    return out;
  };
}
