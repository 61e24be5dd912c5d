// Command runway-kube runs the parts of a Kubernetes control plane for tests:
// kube-apiserver, kube-controller-manager, kube-scheduler, etcd and kwok, one
// sub-command each. One binary links the shared Kubernetes packages once, which
// keeps the cold build short on small machines.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
)

const usage = `usage: runway-kube <command> [flags]

commands:
  apiserver           kube-apiserver (same flags)
  controller-manager  kube-controller-manager (same flags)
  scheduler           kube-scheduler (same flags)
  kwok                kwok controller (same flags, plus --write-default-stages=FILE)
  etcd                single-member etcd (--data-dir, --listen-client-url, --listen-peer-url)
  certs               write the certificates and keys of one cluster (--dir)
  version             print the versions of the linked components

Every command exits when the process in RUNWAY_KUBE_PARENT_PID exits.
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	command, args := os.Args[1], os.Args[2:]
	// Components parse os.Args themselves; make them see their usual argv.
	os.Args = append([]string{"runway-kube " + command}, args...)

	switch command {
	case "apiserver":
		os.Exit(runAPIServer())
	case "controller-manager":
		os.Exit(runControllerManager())
	case "scheduler":
		os.Exit(runScheduler())
	case "kwok":
		os.Exit(runKwok())
	case "etcd":
		os.Exit(runEtcd(args))
	case "certs":
		os.Exit(runCerts(args))
	case "version":
		printVersions()
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "runway-kube: unknown command %q\n\n%s", command, usage)
		os.Exit(2)
	}
}

// printVersions prints the module versions linked into this binary, so a
// harness can check which Kubernetes, etcd and kwok it runs.
func printVersions() {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		fmt.Println("build info unavailable")
		return
	}
	fmt.Printf("go %s\n", info.GoVersion)
	wanted := map[string]string{
		"k8s.io/kubernetes":         "kubernetes",
		"go.etcd.io/etcd/server/v3": "etcd",
		"sigs.k8s.io/kwok":          "kwok",
	}
	for _, dep := range info.Deps {
		if name, ok := wanted[dep.Path]; ok {
			version := dep.Version
			if dep.Replace != nil {
				version = dep.Replace.Version
			}
			fmt.Printf("%s %s\n", name, strings.TrimSpace(version))
		}
	}
}
