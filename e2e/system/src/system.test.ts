import { createServer, type Server } from 'node:net';
import { assertPortFree, backstageEnv, restartDelayMs } from './system';

describe('assertPortFree', () => {
  let server: Server;
  afterEach(
    () => new Promise<void>(r => (server ? server.close(() => r()) : r())),
  );

  it('names the port, what needs it and how to fix it when it is taken', async () => {
    server = createServer();
    await new Promise<void>(r => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    await expect(
      assertPortFree(port, 'the Backstage frontend'),
    ).rejects.toThrow(
      `port ${port} for the Backstage frontend is already in use (another Backstage? see \`ss -ltnp | grep :${port}\`): stop that process or choose other ports (--port, --backend-port)`,
    );
    await new Promise<void>(r => server.close(() => r()));
    await expect(assertPortFree(port, 'x')).resolves.toBeUndefined();
    server = createServer();
    await new Promise<void>(r => server.listen(0, '127.0.0.1', () => r()));
  });
});

describe('backstageEnv', () => {
  it('drops NODE_ENV and keeps the rest', () => {
    expect(
      backstageEnv({ NODE_ENV: 'test', PATH: '/bin', KUBECONFIG: '/k' }),
    ).toEqual({
      PATH: '/bin',
      KUBECONFIG: '/k',
    });
  });

  it("points the backend's hub search at the local hub stand-in", () => {
    expect(
      backstageEnv(
        { PATH: '/bin', HF_ENDPOINT: 'https://huggingface.co' },
        'http://127.0.0.1:4000',
      ),
    ).toEqual({ PATH: '/bin', HF_ENDPOINT: 'http://127.0.0.1:4000' });
  });
});

describe('restartDelayMs', () => {
  it('restarts after 1 s, doubling to 30 s while the process keeps exiting at once', () => {
    expect([1, 2, 3, 5, 6, 10].map(restartDelayMs)).toEqual([
      1000, 2000, 4000, 16_000, 30_000, 30_000,
    ]);
  });
});
