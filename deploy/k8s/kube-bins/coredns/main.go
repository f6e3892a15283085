// CoreDNS with only the plugins the cluster's Corefile names (../../coredns/coredns.yaml). Built in
// this module, by the same `go build` as Kubernetes (../../binaries.sh), so the client-go it
// shares with the Kubernetes binaries is compiled once, and the cloud providers' SDKs of the full
// plugin set are not compiled at all.
package main

import (
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/loadbalance"
	_ "github.com/coredns/coredns/plugin/metrics"
	_ "github.com/coredns/coredns/plugin/ready"
	_ "github.com/coredns/coredns/plugin/reload"
	_ "github.com/coredns/coredns/plugin/template"
)

func main() {
	coremain.Run()
}
