import { Connectivity } from './connectivity';

const tick = () => new Promise(resolve => setImmediate(resolve));
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));
/** Waits for a condition instead of a fixed time: a busy CI machine may run the 10 ms probe timer late. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 10 s');
    await sleep(5);
  }
}

describe('Connectivity', () => {
  it('probes while the server is down and wakes waiters and listeners once it answers', async () => {
    let up = false;
    const probes: number[] = [];
    const c = new Connectivity(
      async () => {
        probes.push(Date.now());
        if (!up) throw new Error('connection refused');
      },
      { probeIntervalMs: 10, random: () => 0 },
    );
    const heard = jest.fn();
    c.onReconnect(heard);
    const signal = c.reconnectSignal();
    c.failed();
    c.failed(); // one probe loop, however many requests fail
    expect(c.isDown()).toBe(true);
    await until(() => probes.length > 1);
    expect(signal.aborted).toBe(false);
    up = true;
    await until(() => !c.isDown());
    expect(signal.aborted).toBe(true);
    expect(heard).toHaveBeenCalledTimes(1);
    // A fresh signal for the next outage.
    expect(c.reconnectSignal().aborted).toBe(false);
    const count = probes.length;
    await sleep(50); // five probe intervals: none may run while the server is up
    expect(probes.length).toBe(count);
    c.close();
  });

  it('takes any ordinary answer as the return, and ignores answers while up', async () => {
    const c = new Connectivity(() => new Promise(() => undefined), {
      probeIntervalMs: 60_000,
    });
    const heard = jest.fn();
    const unsubscribe = c.onReconnect(heard);
    c.answered();
    expect(heard).not.toHaveBeenCalled();
    c.failed();
    c.answered();
    await tick();
    expect(heard).toHaveBeenCalledTimes(1);
    unsubscribe();
    c.failed();
    c.answered();
    expect(heard).toHaveBeenCalledTimes(1);
    c.close();
  });
});
