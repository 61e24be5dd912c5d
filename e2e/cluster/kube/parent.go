package main

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// parentPIDEnv names the process whose death ends this one. The harness sets
// it so that no etcd or apiserver outlives a test runner that was killed.
const parentPIDEnv = "RUNWAY_KUBE_PARENT_PID"

// init runs on the main OS thread (the runtime locks it there during package
// initialisation), and that thread lives as long as the process, so the
// parent-death signal set here stays armed.
func init() {
	value := os.Getenv(parentPIDEnv)
	if value == "" {
		return
	}
	parent, err := strconv.Atoi(value)
	if err != nil || parent <= 1 {
		fmt.Fprintf(os.Stderr, "runway-kube: %s=%q is not a process id\n", parentPIDEnv, value)
		os.Exit(2)
	}
	// The kernel kills us when the thread that forked us exits.
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0); err != nil {
		fmt.Fprintf(os.Stderr, "runway-kube: prctl(PR_SET_PDEATHSIG): %v\n", err)
	}
	// The parent may have died before prctl; and the forking thread may not
	// be the parent's main thread. Polling covers both.
	checkParent(parent)
	go func() {
		for range time.Tick(500 * time.Millisecond) {
			checkParent(parent)
		}
	}()
}

func checkParent(parent int) {
	if os.Getppid() != parent {
		fmt.Fprintf(os.Stderr, "runway-kube: parent process %d is gone, exiting\n", parent)
		os.Exit(1)
	}
}
