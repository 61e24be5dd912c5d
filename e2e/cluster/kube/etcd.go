package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

// runEtcd runs a single-member etcd in this process until SIGTERM/SIGINT.
func runEtcd(args []string) int {
	flags := flag.NewFlagSet("etcd", flag.ContinueOnError)
	dataDir := flags.String("data-dir", "", "directory for etcd data (required)")
	clientURL := flags.String("listen-client-url", "", "client URL, e.g. http://127.0.0.1:2379 (required)")
	peerURL := flags.String("listen-peer-url", "", "peer URL, e.g. http://127.0.0.1:2380 (required)")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if *dataDir == "" || *clientURL == "" || *peerURL == "" {
		fmt.Fprintln(os.Stderr, "runway-kube etcd: --data-dir, --listen-client-url and --listen-peer-url are required")
		return 2
	}
	client, err := url.Parse(*clientURL)
	if err != nil {
		fmt.Fprintf(os.Stderr, "runway-kube etcd: --listen-client-url: %v\n", err)
		return 2
	}
	peer, err := url.Parse(*peerURL)
	if err != nil {
		fmt.Fprintf(os.Stderr, "runway-kube etcd: --listen-peer-url: %v\n", err)
		return 2
	}

	cfg := embed.NewConfig()
	cfg.Name = "default"
	cfg.Dir = *dataDir
	cfg.ListenClientUrls = []url.URL{*client}
	cfg.AdvertiseClientUrls = []url.URL{*client}
	cfg.ListenPeerUrls = []url.URL{*peer}
	cfg.AdvertisePeerUrls = []url.URL{*peer}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.ListenMetricsUrls = nil
	// Test data: durability across power loss is not worth the fsync cost.
	cfg.UnsafeNoFsync = true
	cfg.LogLevel = "error"
	cfg.LogOutputs = []string{"stderr"}

	server, err := embed.StartEtcd(cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "runway-kube etcd: start: %v\n", err)
		return 1
	}
	defer server.Close()

	select {
	case <-server.Server.ReadyNotify():
		fmt.Fprintln(os.Stderr, "runway-kube etcd: ready")
	case <-time.After(60 * time.Second):
		fmt.Fprintln(os.Stderr, "runway-kube etcd: not ready after 60s")
		return 1
	}

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-stop:
		return 0
	case err := <-server.Err():
		fmt.Fprintf(os.Stderr, "runway-kube etcd: %v\n", err)
		return 1
	}
}
