import { createServer } from 'node:net';
import { readFile, readdir, readlink } from 'node:fs/promises';

const TCP_LISTEN = '0A';

/**
 * Socket inodes listening on `port` in a /proc/net/tcp or /proc/net/tcp6 table.
 * Columns: sl local_address rem_address st ... uid timeout inode.
 */
export function listeningInodes(procNetTcp: string, port: number): string[] {
  const inodes: string[] = [];
  for (const line of procNetTcp.split('\n').slice(1)) {
    const columns = line.trim().split(/\s+/);
    if (columns.length < 10) continue;
    const [, local, , state] = columns;
    const localPort = parseInt(local.split(':').pop() ?? '', 16);
    if (state === TCP_LISTEN && localPort === port) {
      inodes.push(columns[9]);
    }
  }
  return inodes;
}

/** Best-effort: which process listens on the port ("1234 (kube-apiserver ...)"). */
export async function describePortOwner(
  port: number,
): Promise<string | undefined> {
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map(path =>
      readFile(path, 'utf8').catch(() => ''),
    ),
  );
  const inodes = new Set(tables.flatMap(table => listeningInodes(table, port)));
  if (inodes.size === 0) return undefined;
  const pids = (await readdir('/proc').catch(() => [])).filter(entry =>
    /^\d+$/.test(entry),
  );
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) {
        const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(
          () => '',
        );
        return `${pid} (${cmdline.split('\0').join(' ').trim().slice(0, 160)})`;
      }
    }
  }
  return 'a process this user cannot inspect';
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      const bound =
        typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve(bound));
    });
  });
}

/** Fails with an error naming the port and the process using it. */
export async function assertPortFree(
  port: number,
  purpose: string,
): Promise<void> {
  try {
    await listenOnce(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    const owner = await describePortOwner(port);
    throw new Error(
      `Port ${port} on 127.0.0.1 (${purpose}) is already in use${
        owner ? ` by process ${owner}` : ''
      }. ` +
        'Stop that process, choose another port, or leave the port unset to use a free one.',
    );
  }
}

// Ports handed out by this process; the OS could otherwise return a port
// again before the component that got it has bound it.
const handedOut = new Set<number>();

/** A port that is free on 127.0.0.1 now and not handed out before by this process. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await listenOnce(0);
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}
