package main

import (
	"fmt"
	"os"
	"strings"
	_ "time/tzdata" // CronJob time zones, as in the upstream kube-controller-manager

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"

	"github.com/spf13/pflag"
	nodefast "sigs.k8s.io/kwok/kustomize/stage/node/fast"
	nodeheartbeat "sigs.k8s.io/kwok/kustomize/stage/node/heartbeat-with-lease"
	podfast "sigs.k8s.io/kwok/kustomize/stage/pod/fast"
	kwokconfig "sigs.k8s.io/kwok/pkg/config"
	kwokcmd "sigs.k8s.io/kwok/pkg/kwok/cmd"
	kwoklog "sigs.k8s.io/kwok/pkg/log"
	"sigs.k8s.io/kwok/pkg/utils/signals"
)

func runAPIServer() int {
	return cli.Run(apiserver.NewAPIServerCommand())
}

func runControllerManager() int {
	return cli.Run(controllermanager.NewControllerManagerCommand())
}

func runScheduler() int {
	return cli.Run(scheduler.NewSchedulerCommand())
}

// defaultStages are the stages kwokctl installs by default: nodes become
// Ready and keep a lease, pods become Running and Ready, pods of Jobs (and
// other pods whose containers all end) Succeed, deleted pods go away.
var defaultStages = []string{
	nodefast.DefaultNodeInit,
	nodeheartbeat.DefaultNodeHeartbeatWithLease,
	podfast.DefaultPodReady,
	podfast.DefaultPodComplete,
	podfast.DefaultPodDelete,
}

const writeStagesFlag = "--write-default-stages="

// runKwok mirrors sigs.k8s.io/kwok/cmd/kwok. The bare kwok controller has no
// stages unless given a config; --write-default-stages=FILE writes kwokctl's
// default stages to FILE and loads them.
func runKwok() int {
	args := os.Args[1:]
	kept := args[:0]
	for _, arg := range args {
		if path, ok := strings.CutPrefix(arg, writeStagesFlag); ok {
			if err := os.WriteFile(path, []byte(strings.Join(defaultStages, "\n---\n")), 0o600); err != nil {
				fmt.Fprintf(os.Stderr, "runway-kube kwok: writing default stages: %v\n", err)
				return 1
			}
			kept = append(kept, "--config="+path)
			continue
		}
		kept = append(kept, arg)
	}
	os.Args = append(os.Args[:1], kept...)
	// Kubernetes packages linked into this binary register global flags (a
	// non-bool --version among them) that cobra would merge into kwok's.
	pflag.CommandLine = pflag.NewFlagSet(os.Args[0], pflag.ExitOnError)

	flagset := pflag.NewFlagSet("global", pflag.ContinueOnError)
	flagset.ParseErrorsAllowlist.UnknownFlags = true
	flagset.Usage = func() {}

	ctx := signals.SetupSignalContext()
	ctx, logger := kwoklog.InitFlags(ctx, flagset)
	ctx, err := kwokconfig.InitFlags(ctx, flagset)
	if err != nil {
		logger.Error("Init config flags", "err", err)
		return 1
	}
	command := kwokcmd.NewCommand(ctx)
	command.PersistentFlags().AddFlagSet(flagset)
	if err := command.ExecuteContext(ctx); err != nil {
		logger.Error("Execute exit", "err", err)
		return 1
	}
	return 0
}
