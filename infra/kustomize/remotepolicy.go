package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"syscall"
	"time"
)

// remotePolicy decides where a render that may reach the network (-allow-remote) may connect.
// A host on the deployment's allow-list (-remote-hosts) may be reached at any address. Any other
// host is refused, unless anyPublic (-remote-public, the platform's own ClusterGitTracks): then it
// may be reached at public addresses only, checked on the address actually dialled (after DNS, at
// connect time), and an HTTP redirect may not lead to it from another host.
type remotePolicy struct {
	hosts     []string // lower-case "host" (any port) or "host:port"
	anyPublic bool
}

// maxRemoteBytes caps one remote file (a resource or a generator's file): 16 MiB.
const maxRemoteBytes = 16 << 20

const allowListSetting = "LIGHTKEEPER_KUSTOMIZE_REMOTE_HOSTS"

func newRemotePolicy(list string, anyPublic bool) *remotePolicy {
	p := &remotePolicy{anyPublic: anyPublic}
	for _, h := range strings.Split(list, ",") {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			p.hosts = append(p.hosts, h)
		}
	}
	return p
}

// listed says whether host (a name or an IP, without brackets) and port are on the allow-list.
func (p *remotePolicy) listed(host, port string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, h := range p.hosts {
		if h == host || h == net.JoinHostPort(host, port) || (strings.HasPrefix(h, "[") && h == "["+host+"]") {
			return true
		}
	}
	return false
}

// refusals records every connection refused, so the render's error names the first one.
var refusals struct {
	sync.Mutex
	list []string
}

func refuse(format string, args ...any) error {
	message := fmt.Sprintf(format, args...)
	refusals.Lock()
	refusals.list = append(refusals.list, message)
	refusals.Unlock()
	return fmt.Errorf("%s", message)
}

func firstRefusal() string {
	refusals.Lock()
	defer refusals.Unlock()
	if len(refusals.list) == 0 {
		return ""
	}
	return refusals.list[0]
}

// nonPublic names why an address is not a public one (loopback, link-local, private, …), else "".
func nonPublic(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case a.IsLoopback():
		return "a loopback address"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "a link-local address"
	case a.IsPrivate():
		return "a private address"
	case a.IsUnspecified():
		return "an unspecified address"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "a multicast address"
	}
	for _, r := range specialRanges {
		if r.Contains(a) {
			return "a reserved address (" + r.String() + ")"
		}
	}
	return ""
}

// Ranges that are neither loopback, link-local nor private by Go's rules but no public host either:
// "this network", carrier-grade NAT (often internal in clouds), IETF protocol assignments,
// benchmarking, reserved and broadcast, NAT64 and 6to4 (they embed an IPv4 address), IPv4-compatible,
// discard-only.
var specialRanges = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "198.18.0.0/15", "240.0.0.0/4",
		"64:ff9b::/96", "64:ff9b:1::/48", "2002::/16", "::/96", "100::/64",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// dial connects to addr (host:port) if the policy allows it.
func (p *remotePolicy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	dialer := &net.Dialer{Timeout: 30 * time.Second}
	if p.listed(host, port) {
		return dialer.DialContext(ctx, network, addr)
	}
	if !p.anyPublic {
		return nil, refuse("remote host %s is not on the deployment's allow-list (%s)", host, allowListSetting)
	}
	// Asked once per address tried, after name resolution: a name resolving to 127.0.0.1 is refused.
	dialer.Control = func(_, address string, _ syscall.RawConn) error {
		ip, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		a, err := netip.ParseAddr(ip)
		if err != nil {
			return err
		}
		if why := nonPublic(a); why != "" {
			return refuse("remote host %s resolves to %s, %s, and is not on the deployment's allow-list (%s)",
				host, a, why, allowListSetting)
		}
		return nil
	}
	return dialer.DialContext(ctx, network, addr)
}

// transport is kustomize's HTTP transport under the policy: no proxy from the environment, each
// connection through dial, a redirect to another host only if that host is allow-listed, and a
// response body of at most maxRemoteBytes.
func (p *remotePolicy) transport() http.RoundTripper {
	return policyTransport{p: p, next: &http.Transport{
		Proxy:                 nil,
		DialContext:           p.dial,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
		MaxIdleConns:          4,
	}}
}

type policyTransport struct {
	p    *remotePolicy
	next http.RoundTripper
}

func (t policyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Scheme != "http" && r.URL.Scheme != "https" {
		return nil, refuse("remote %s: only http and https are allowed", r.URL.Redacted())
	}
	// Set by http.Client on the request a redirect created: the response that redirected.
	if r.Response != nil && r.Response.Request != nil {
		from := r.Response.Request.URL
		if !strings.EqualFold(from.Host, r.URL.Host) && !t.p.listed(r.URL.Hostname(), urlPort(r)) {
			return nil, refuse("remote %s redirects to %s, another host not on the deployment's allow-list (%s)",
				from.Redacted(), r.URL.Redacted(), allowListSetting)
		}
	}
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &cappedBody{ReadCloser: resp.Body, url: r.URL.Redacted(), left: maxRemoteBytes}
	return resp, nil
}

func urlPort(r *http.Request) string {
	if port := r.URL.Port(); port != "" {
		return port
	}
	if r.URL.Scheme == "https" {
		return "443"
	}
	return "80"
}

type cappedBody struct {
	io.ReadCloser
	url  string
	left int64
}

func (b *cappedBody) Read(data []byte) (int, error) {
	if b.left < 0 {
		return 0, fmt.Errorf("remote %s is larger than %d bytes", b.url, maxRemoteBytes)
	}
	if int64(len(data)) > b.left+1 {
		data = data[:b.left+1]
	}
	n, err := b.ReadCloser.Read(data)
	b.left -= int64(n)
	if b.left < 0 {
		return 0, fmt.Errorf("remote %s is larger than %d bytes", b.url, maxRemoteBytes)
	}
	return n, err
}
