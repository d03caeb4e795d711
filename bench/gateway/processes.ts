import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';

export interface Probe {
  status: number;
  body: string;
}

export function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

/** Resident set size of a process in bytes (Linux /proc). */
export function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** Samples the RSS of `pid` every 100 ms until stopped; returns the peak. */
export function sampleRss(pid: number): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(pid));
    } catch {
      // process gone
    }
  }, 100);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/** CPU time (user + system, all threads) a process used so far, in seconds; NaN when it is gone or unknown. */
export function cpuSeconds(pid: number | null): number {
  if (pid === null) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

/**
 * The pid of the Kafka broker (a `kafka.Kafka` JVM outside the fault drills' private ones), or
 * null. With `port` and several brokers on the machine (other checkouts'), the one listening on
 * that port: measuring another checkout's broker would say nothing about this one.
 */
export function kafkaBrokerPid(port?: number): number | null {
  const brokers: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes('kafka.Kafka') && !cmdline.includes('faultdrills')) brokers.push(Number(entry));
    } catch {
      // gone
    }
  }
  if (brokers.length <= 1 || port === undefined) return brokers[0] ?? null;
  const sockets = listeningSocketInodes(port);
  return brokers.find((pid) => ownsSocket(pid, sockets)) ?? brokers[0]!;
}

/** Inodes of the TCP sockets listening on `port` (IPv4 and IPv6). */
function listeningSocketInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; field 9 is the inode.
      if (fields.length > 9 && fields[3] === '0A' && parseInt(fields[1]!.split(':')[1]!, 16) === port) inodes.add(fields[9]!);
    }
  }
  return inodes;
}

function ownsSocket(pid: number, inodes: Set<string>): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        return match !== null && inodes.has(match[1]!);
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}
