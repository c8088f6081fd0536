//go:build helm

package main

import (
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/Masterminds/semver/v3"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/registry"
)

// pullOCI reads a dependency from an OCI registry (`repository: oci://host/path`) with Helm's own
// registry client over the policy's HTTP client (every connection, token endpoints included, goes
// through remotePolicy), anonymously: the render reads no credentials. A version range is resolved
// against the repository's tags as Helm does. The pull checks each blob against its digest; the
// archive must then hold the chart and version asked for (loadDependency). Plain HTTP only for a
// registry on a loopback address (a local registry, as Docker treats 127.0.0.0/8), else HTTPS.
func pullOCI(client *http.Client, dep *chart.Dependency, version string) ([]byte, string, error) {
	base := strings.TrimSuffix(strings.TrimPrefix(dep.Repository, "oci://"), "/") + "/" + dep.Name
	options := []registry.ClientOption{registry.ClientOptHTTPClient(client)}
	host := strings.SplitN(base, "/", 2)[0]
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if loopback(host) {
		options = append(options, registry.ClientOptPlainHTTP())
	}
	rc, err := registry.NewClient(options...)
	if err != nil {
		return nil, "", err
	}
	tag := version
	if tag == "" || strings.ContainsAny(tag, "^~<>=!*xX| ") {
		wanted := tag
		if wanted == "" {
			wanted = "*"
		}
		constraint, err := semver.NewConstraint(wanted)
		if err != nil {
			return nil, "", err
		}
		tags, err := rc.Tags(base)
		if err != nil {
			return nil, "", err
		}
		tag = ""
		for _, t := range tags { // newest first
			if v, err := semver.NewVersion(t); err == nil && constraint.Check(v) {
				tag = t
				break
			}
		}
		if tag == "" {
			return nil, "", fmt.Errorf("no tag of %s matches %s", base, version)
		}
	}
	result, err := rc.Pull(base+":"+strings.ReplaceAll(tag, "+", "_"), registry.PullOptWithChart(true))
	if err != nil {
		return nil, "", err
	}
	return result.Chart.Data, tag, nil
}

func loopback(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
