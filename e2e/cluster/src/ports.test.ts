import { createServer, type Server } from 'node:net';
import { assertPortFree, freePort, listeningInodes } from './ports';

const PROC_NET_TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 12345 1 0000000000000000 100 0 0 10 0
   1: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 0 1 0000000000000000 20 4 30 10 -1
   2: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 999 1 0000000000000000 100 0 0 10 0
`;

describe('listeningInodes', () => {
  it('finds the listening socket of a port and ignores connections', () => {
    expect(listeningInodes(PROC_NET_TCP, 8080)).toEqual(['12345']);
    expect(listeningInodes(PROC_NET_TCP, 22)).toEqual(['999']);
    expect(listeningInodes(PROC_NET_TCP, 443)).toEqual([]);
  });
});

describe('ports on this machine', () => {
  let server: Server;
  let busy: number;

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    busy = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise(resolve => server.close(resolve)));

  it('names the busy port and the process holding it', async () => {
    await expect(
      assertPortFree(busy, 'kube-apiserver of cluster t'),
    ).rejects.toThrow(
      new RegExp(
        `Port ${busy} on 127.0.0.1 \\(kube-apiserver of cluster t\\) is already in use by process ${process.pid} `,
      ),
    );
  });

  it('hands out distinct free ports', async () => {
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    expect(new Set(ports).size).toBe(3);
    await Promise.all(ports.map(port => assertPortFree(port, 'test')));
  });
});
