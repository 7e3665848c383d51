// HAProxy as the storm bench's balancer (BENCH_BALANCER=haproxy, README "Part 33"): what a deployment
// puts in front of the gateways (C, an event loop per thread, no JavaScript per relayed frame) instead of
// the bench's Node relays (balancer-worker.ts), whose CPU the product does not pay. Debian's
// /usr/sbin/haproxy with a config written to a temp dir, started and stopped by the bench by its PID;
// its counts read from its stats socket (`show stat`), a gateway added through the same socket.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The haproxy binary (BENCH_HAPROXY_BIN; Debian's package by default). */
export const HAPROXY_BIN = process.env.BENCH_HAPROXY_BIN ?? '/usr/sbin/haproxy';

export interface HaproxyOptions {
  /** The port it listens on (127.0.0.1). */
  port: number;
  /** The gateways (http URLs) it sends connections to from the start. */
  gateways: string[];
  /** Servers declared, the ones beyond `gateways` disabled until `add` (a gateway started later). */
  slots: number;
  /** At most this many connections to one gateway (`maxconn` per server); beyond it they wait in HAProxy's queue. */
  maxPerBackend?: number;
  /** How long a connection waits in that queue at most (`timeout queue`), ms. */
  queueTimeoutMs: number;
  /** Connections it holds at most (global `maxconn`: two descriptors each, and a pipe pair per four for splicing). */
  maxConnections: number;
  /**
   * New connections it takes a second at most (the frontend's `rate-limit sessions`; the rest wait in
   * its listen queue): HAProxy's nearest to the Node balancers' bound on handshakes in flight, which
   * it has no equivalent of in TCP mode (`maxconn` counts a WebSocket for its whole life). None unless given.
   */
  sessionsPerSecond?: number;
}

/** What the bench reads from a balancer (the same as from its Node balancers). */
export interface HaproxyCounts {
  /** Connections to each gateway now (`scur` per server), by URL. */
  open: Record<string, number>;
  /** Connections waiting in the queue now (the backend's `qcur`). */
  queued: number;
  /**
   * Connections that timed out in the queue, and those that failed to connect after every retry
   * (the backend's `econ`: HAProxy counts both there; the bench's gateway that refuses is marked down
   * at its first refusal and the connection redispatched, so a failure after every retry is rare).
   */
  queueTimeouts: number;
  /** Connections the client ended (the backend's `cli_abrt`: queued ones with `abortonclose`, and tabs that left). */
  queueAbandoned: number;
  /** HAProxy has no separate count of a connection no gateway could take: it is in `econ` (above). */
  refused: number;
}

export interface Haproxy {
  url: string;
  child: ChildProcess;
  /** Sends new connections to this gateway too: the next disabled server gets its address and is enabled. */
  add(gatewayUrl: string): Promise<void>;
  counts(): Promise<HaproxyCounts>;
  close(): Promise<void>;
}

const hostPort = (url: string) => {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
};

/** The config: TCP, least connections, the tabs' own source addresses passed on to the gateways. */
export function haproxyConfig(options: HaproxyOptions, statsSocket: string): string {
  const maxconn = options.maxPerBackend ? ` maxconn ${options.maxPerBackend}` : '';
  const servers = Array.from({ length: options.slots }, (_, i) => {
    const url = options.gateways[i];
    // A disabled server needs an address: a placeholder until `add` sets the gateway's.
    const { host, port } = url ? hostPort(url) : { host: '127.0.0.1', port: 1 };
    return `    server gateway${i + 1} ${host}:${port}${maxconn}${url ? '' : ' disabled'}`;
  });
  return `global
    maxconn ${options.maxConnections}
    nbthread 1
    stats socket ${statsSocket} level admin

defaults
    mode tcp
    timeout connect 5s
    # A tab's WebSocket lives for the run (the gateway pings every 25 s).
    timeout client 1h
    timeout server 1h
    timeout queue ${options.queueTimeoutMs}
    timeout check 3s
    # A client that leaves while queued leaves the queue (no gateway sees it).
    option abortonclose
    # A connection refused by a gateway (killed, not yet listening) goes to another one at once.
    option redispatch 1
    retries 3
    option splice-auto

frontend tabs
    bind 127.0.0.1:${options.port} backlog 8192
    maxconn ${options.maxConnections}
${options.sessionsPerSecond ? `    rate-limit sessions ${options.sessionsPerSecond}\n` : ''}    default_backend gateways

backend gateways
    balance leastconn
    # Transparent: each connection to a gateway from the tab's own address (IP_TRANSPARENT, root;
    # every 127.x address is local on loopback), so the gateways' limits per address see the tabs'.
    source 0.0.0.0 usesrc clientip
    # A gateway is down after two failed checks (0.5 s apart; a refused connection meanwhile is
    # retried on the other) and up at its first good one (every 250 ms): the Node balancers pass a
    # gateway that refused over for 1 s. Not down at its first slow connect: a gateway busy with a
    # storm answers late, and marking it down sent every connection to the other (README "Part 33").
    default-server check inter 500ms fastinter 250ms downinter 250ms rise 1 fall 2
${servers.join('\n')}
`;
}

/** One command on the stats socket; its whole answer. */
export function haproxyCommand(statsSocket: string, command: string): Promise<string> {
  return new Promise((resolveAnswer, reject) => {
    const socket = connect(statsSocket);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('end', () => resolveAnswer(answer));
    socket.end(`${command}\n`);
  });
}

/** `show stat`'s CSV as one record per row (`# pxname,svname,…` names the columns). */
export function parseShowStat(csv: string): Record<string, string>[] {
  const lines = csv.split('\n').filter((l) => l.trim() !== '');
  const header = lines.shift();
  if (!header?.startsWith('# ')) throw new Error(`not an answer to show stat: ${csv.slice(0, 80)}`);
  const names = header.slice(2).split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [names[i], value])));
}

/** The bench's counts from `show stat`'s rows, the servers named by the URLs in `slots`. */
export function countsFromStats(rows: Record<string, string>[], slots: (string | null)[]): HaproxyCounts {
  const row = (svname: string) => rows.find((r) => r.pxname === 'gateways' && r.svname === svname);
  const backend = row('BACKEND');
  if (!backend) throw new Error('show stat: no backend "gateways"');
  const n = (value: string | undefined) => Number(value) || 0;
  const open: Record<string, number> = {};
  slots.forEach((url, i) => {
    if (url) open[url] = n(row(`gateway${i + 1}`)?.scur);
  });
  return {
    open,
    queued: n(backend.qcur),
    queueTimeouts: n(backend.econ),
    queueAbandoned: n(backend.cli_abrt),
    refused: 0,
  };
}

/** Throws, saying what to do, when there is no haproxy to run. */
export function assertHaproxy(): void {
  if (!existsSync(HAPROXY_BIN))
    throw new Error(
      `BENCH_BALANCER=haproxy: ${HAPROXY_BIN} not found (apt-get install haproxy, or BENCH_HAPROXY_BIN=<path>)`,
    );
}

/**
 * Starts haproxy in the foreground (`-db`: its PID is the process the bench holds, for its CPU and
 * to stop it) and waits until its stats socket answers. Throws when the binary is missing.
 */
export async function startHaproxy(options: HaproxyOptions): Promise<Haproxy> {
  assertHaproxy();
  const dir = mkdtempSync(join(tmpdir(), 'bench-haproxy-'));
  const statsSocket = join(dir, 'stats.sock');
  const configFile = join(dir, 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig(options, statsSocket));
  const child = spawn(HAPROXY_BIN, ['-db', '-f', configFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  // The temp dir goes with the process, however it ends (the bench SIGKILLs its children when stopped).
  const exited = new Promise<void>((r) =>
    child.once('exit', () => {
      rmSync(dir, { recursive: true, force: true });
      r();
    }),
  );
  const slots: (string | null)[] = Array.from({ length: options.slots }, (_, i) => options.gateways[i] ?? null);
  const ask = (command: string) => haproxyCommand(statsSocket, command);
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`haproxy exited with ${child.exitCode ?? child.signalCode} (config: ${configFile})`);
    if (
      await ask('show info').then(
        (a) => a.includes('Pid:'),
        () => false,
      )
    )
      break;
    if (i > 100) throw new Error('haproxy did not start within 10 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${options.port}`,
    child,
    add: async (gatewayUrl) => {
      const slot = slots.indexOf(null);
      if (slot < 0) throw new Error('haproxy: no disabled server left for another gateway');
      const { host, port } = hostPort(gatewayUrl);
      const server = `gateways/gateway${slot + 1}`;
      for (const command of [`set server ${server} addr ${host} port ${port}`, `set server ${server} state ready`]) {
        const answer = (await ask(command)).trim();
        // `set server … addr` answers what it changed; `state ready` answers nothing.
        if (answer && !/changed|no need to change/i.test(answer)) throw new Error(`haproxy: ${command}: ${answer}`);
      }
      slots[slot] = gatewayUrl;
    },
    counts: async () => countsFromStats(parseShowStat(await ask('show stat')), slots),
    close: async () => {
      // SIGTERM: haproxy's hard stop (its connections closed at once).
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
