package main

import (
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// Remote bases are cloned by the `git` program kustomize runs, which resolves and connects on its
// own. confineGit makes every connection of that git (and of the submodules it fetches) go through
// an HTTP proxy in this process that applies the same remotePolicy: git gets this proxy as its
// http.proxy, follows no redirects, speaks only http(s), and reads no user or system configuration.
func confineGit(p *remotePolicy) error {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	server := &http.Server{Handler: gitProxy{p: p}, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = server.Serve(listener) }()
	for _, name := range []string{"http_proxy", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy", "GIT_PROXY_COMMAND", "GIT_SSH", "GIT_SSH_COMMAND"} {
		os.Unsetenv(name)
	}
	for name, value := range map[string]string{
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONFIG_GLOBAL":   os.DevNull,
		"GIT_TERMINAL_PROMPT": "0",
		"GIT_ALLOW_PROTOCOL":  "http:https",
		"GIT_CONFIG_COUNT":    "3",
		"GIT_CONFIG_KEY_0":    "http.proxy",
		"GIT_CONFIG_VALUE_0":  "http://" + listener.Addr().String(),
		"GIT_CONFIG_KEY_1":    "http.followRedirects",
		"GIT_CONFIG_VALUE_1":  "false",
		"GIT_CONFIG_KEY_2":    "http.noProxy",
		"GIT_CONFIG_VALUE_2":  "",
	} {
		if err := os.Setenv(name, value); err != nil {
			return err
		}
	}
	return nil
}

type gitProxy struct{ p *remotePolicy }

func (g gitProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		g.tunnel(w, r)
		return
	}
	if r.URL.Scheme != "http" || r.URL.Host == "" {
		http.Error(w, "lightkeeper: only proxy requests", http.StatusBadRequest)
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	for _, h := range []string{"Proxy-Connection", "Proxy-Authorization", "Connection", "Keep-Alive", "Te", "Trailer", "Upgrade"} {
		out.Header.Del(h)
	}
	// A transport follows no redirects: git sees them and, configured so, follows none.
	transport := &http.Transport{Proxy: nil, DialContext: g.p.dial, ResponseHeaderTimeout: 30 * time.Second}
	defer transport.CloseIdleConnections()
	resp, err := transport.RoundTrip(out)
	if err != nil {
		http.Error(w, "lightkeeper: "+err.Error(), http.StatusForbidden)
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// tunnel serves CONNECT (https): the target host is checked and dialled by the policy, then bytes
// are relayed both ways (TLS stays end to end).
func (g gitProxy) tunnel(w http.ResponseWriter, r *http.Request) {
	target := r.Host
	if _, _, err := net.SplitHostPort(target); err != nil {
		target = net.JoinHostPort(strings.Trim(target, "[]"), "443")
	}
	upstream, err := g.p.dial(r.Context(), "tcp", target)
	if err != nil {
		http.Error(w, "lightkeeper: "+err.Error(), http.StatusForbidden)
		return
	}
	hijacker, ok := w.(http.Hijacker)
	if !ok {
		upstream.Close()
		http.Error(w, "lightkeeper: cannot tunnel", http.StatusInternalServerError)
		return
	}
	client, buffered, err := hijacker.Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	_, _ = client.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n"))
	go func() {
		_, _ = io.Copy(upstream, buffered)
		upstream.Close()
	}()
	_, _ = io.Copy(client, upstream)
	client.Close()
}
