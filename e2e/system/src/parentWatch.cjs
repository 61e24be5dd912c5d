/*
 * Preloaded (NODE_OPTIONS=--require) into every Node process the local
 * system starts, and inherited by their Node children: exits when the
 * orchestrator named by RUNWAY_KUBE_PARENT_PID is gone, even after a
 * kill -9 that left it no chance to stop them. runway-kube (the cluster
 * harness's binary) obeys the same variable.
 */
'use strict';

const parent = Number(process.env.RUNWAY_KUBE_PARENT_PID);
if (Number.isInteger(parent) && parent > 1 && parent !== process.pid) {
  const timer = setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch (err) {
      if (err && err.code === 'ESRCH') {
        process.stderr.write(`orchestrator ${parent} is gone, exiting\n`);
        process.exit(1);
      }
    }
  }, 500);
  timer.unref();
}
