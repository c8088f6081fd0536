package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
)

func TestNonPublicAddresses(t *testing.T) {
	refused := []string{
		"127.0.0.1", "127.1.2.3", "::1", "169.254.169.254", "fd00:ec2::254", "fe80::1", "10.0.0.1",
		"172.16.5.4", "192.168.1.1", "100.64.0.1", "0.0.0.0", "::", "::ffff:127.0.0.1", "::ffff:169.254.169.254",
		"64:ff9b::a9fe:a9fe", "2002:7f00:1::", "224.0.0.1", "255.255.255.255",
	}
	for _, s := range refused {
		if nonPublic(netip.MustParseAddr(s)) == "" {
			t.Errorf("%s counted as public", s)
		}
	}
	for _, s := range []string{"140.82.112.3", "8.8.8.8", "2606:4700::1111", "172.32.0.1"} {
		if why := nonPublic(netip.MustParseAddr(s)); why != "" {
			t.Errorf("%s refused as %s", s, why)
		}
	}
}

func TestListed(t *testing.T) {
	p := newRemotePolicy(" GitHub.com ,127.0.0.1:8080,[::1]", false)
	cases := map[[2]string]bool{
		{"github.com", "443"}: true, {"GITHUB.COM.", "80"}: true, {"api.github.com", "443"}: false,
		{"127.0.0.1", "8080"}: true, {"127.0.0.1", "8081"}: false, {"::1", "1"}: true, {"evil.com", "443"}: false,
	}
	for c, want := range cases {
		if got := p.listed(c[0], c[1]); got != want {
			t.Errorf("listed(%s, %s) = %v, want %v", c[0], c[1], got, want)
		}
	}
}

func loopbackServer(t *testing.T, handler http.HandlerFunc) *url.URL {
	server := httptest.NewServer(handler)
	t.Cleanup(server.Close)
	u, _ := url.Parse(server.URL)
	return u
}

func get(p *remotePolicy, target string) (string, error) {
	client := &http.Client{Transport: p.transport()}
	resp, err := client.Get(target)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return string(body), err
}

func TestTransportRules(t *testing.T) {
	secret := loopbackServer(t, func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "secret") })
	port := secret.Port()
	byName := "http://localhost:" + port + "/"

	// A platform track (-remote-public): other hosts only at public addresses, on the resolved IP.
	public := newRemotePolicy("", true)
	for _, target := range []string{secret.String(), byName, "http://[::ffff:127.0.0.1]:" + port + "/"} {
		if _, err := get(public, target); err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("%s: want a loopback refusal, got %v", target, err)
		}
	}
	// A tenant's track: only allow-listed hosts, whatever their address.
	tenant := newRemotePolicy("example.com", false)
	if _, err := get(tenant, secret.String()); err == nil || !strings.Contains(err.Error(), "not on the deployment's allow-list") {
		t.Errorf("unlisted host: want a refusal, got %v", err)
	}
	listed := newRemotePolicy("127.0.0.1:"+port, false)
	if body, err := get(listed, secret.String()); err != nil || body != "secret" {
		t.Errorf("allow-listed loopback host: got %q, %v", body, err)
	}
	if _, err := get(listed, byName); err == nil {
		t.Errorf("localhost is not the listed 127.0.0.1: want a refusal")
	}
}

func TestRedirectToAnotherHost(t *testing.T) {
	target := loopbackServer(t, func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "metadata") })
	redirecting := loopbackServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/same" {
			http.Redirect(w, r, "/end", http.StatusFound)
			return
		}
		if r.URL.Path == "/end" {
			fmt.Fprint(w, "end")
			return
		}
		http.Redirect(w, r, "http://localhost:"+target.Port()+"/", http.StatusFound)
	})
	p := newRemotePolicy("127.0.0.1", false)
	if _, err := get(p, redirecting.String()+"/away"); err == nil || !strings.Contains(err.Error(), "redirects to") {
		t.Errorf("redirect to another host: want a refusal, got %v", err)
	}
	if body, err := get(p, redirecting.String()+"/same"); err != nil || body != "end" {
		t.Errorf("redirect on the same host: got %q, %v", body, err)
	}
	both := newRemotePolicy("127.0.0.1,localhost", false)
	if body, err := get(both, redirecting.String()+"/away"); err != nil || body != "metadata" {
		t.Errorf("redirect to an allow-listed host: got %q, %v", body, err)
	}
}

func TestResponseCap(t *testing.T) {
	big := loopbackServer(t, func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write(make([]byte, maxRemoteBytes+1))
	})
	if _, err := get(newRemotePolicy("127.0.0.1", false), big.String()); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("want a size refusal, got %v", err)
	}
}

// The proxy git is given applies the same rules to plain requests and to CONNECT tunnels.
func TestGitProxy(t *testing.T) {
	secret := loopbackServer(t, func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "secret") })
	for _, c := range []struct {
		policy *remotePolicy
		want   int
	}{{newRemotePolicy("", true), http.StatusForbidden}, {newRemotePolicy("127.0.0.1", false), http.StatusOK}} {
		proxy := httptest.NewServer(gitProxy{p: c.policy})
		proxyURL, _ := url.Parse(proxy.URL)
		client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}}
		resp, err := client.Get(secret.String())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("proxied GET %v: status %d, want %d", c.policy.hosts, resp.StatusCode, c.want)
		}
		conn, err := net.Dial("tcp", proxyURL.Host)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", secret.Host, secret.Host)
		answer, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		if answer.StatusCode != c.want {
			t.Errorf("CONNECT %v: status %d, want %d", c.policy.hosts, answer.StatusCode, c.want)
		}
		conn.Close()
		proxy.Close()
	}
}

// git, as kustomize runs it for a remote base, connects only through the confining proxy: the same
// server is reached when its host is allow-listed and never when it is not.
func TestGitIsConfined(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH")
	}
	var seen atomic.Int32
	server := loopbackServer(t, func(w http.ResponseWriter, _ *http.Request) {
		seen.Add(1)
		http.NotFound(w, nil)
	})
	for _, c := range []struct {
		policy *remotePolicy
		want   int32
	}{{newRemotePolicy("", true), 0}, {newRemotePolicy(server.Host, false), 1}} {
		for _, name := range []string{"GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0", "GIT_ALLOW_PROTOCOL"} {
			t.Setenv(name, os.Getenv(name)) // restored after the test
		}
		if err := confineGit(c.policy); err != nil {
			t.Fatal(err)
		}
		seen.Store(0)
		out, err := exec.Command("git", "ls-remote", server.String()+"/r.git").CombinedOutput()
		if err == nil {
			t.Fatalf("ls-remote of a 404 succeeded: %s", out)
		}
		if got := seen.Load(); got < c.want || (c.want == 0 && got != 0) {
			t.Errorf("policy %v: server saw %d requests, want %d; git said %s", c.policy.hosts, got, c.want, out)
		}
	}
}
