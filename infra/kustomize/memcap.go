package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"time"
)

// The render's memory cap, LIGHTKEEPER_KUSTOMIZE_MAX_MEMORY_BYTES in its environment (set by
// lib/kustomize/runEngine.ts). GOMEMLIMIT alone is soft: the collector works harder near it, but a
// chart whose data grows past it (a huge `repeat`, a range over millions) keeps growing until the
// Lambda dies with the reconcile in it. So the limit is also a hard one: a watchdog reads the
// process's peak resident size (VmHWM: a spike between two samples is still seen) every few
// milliseconds and ends the render past it, with the reason on stderr; checkMemory asks once more
// before the output is written, so a render that went over the cap never succeeds. Where /proc is
// not there (a developer's macOS), the memory the Go runtime holds is sampled instead.
const memoryLimitSetting = "LIGHTKEEPER_KUSTOMIZE_MAX_MEMORY_BYTES"

const memorySample = 5 * time.Millisecond

var memoryLimit uint64

func init() {
	text := os.Getenv(memoryLimitSetting)
	if text == "" {
		return
	}
	limit, err := strconv.ParseInt(text, 10, 64)
	if err != nil || limit <= 0 {
		fail(fmt.Errorf("%s: %q is not a positive number of bytes", memoryLimitSetting, text))
	}
	memoryLimit = uint64(limit)
	debug.SetMemoryLimit(limit)
	go func() {
		for range time.Tick(memorySample) {
			checkMemory()
		}
	}()
}

// checkMemory ends the render if it has used more memory than the cap.
func checkMemory() {
	if memoryLimit == 0 {
		return
	}
	if used := peakMemory(); used > memoryLimit {
		fail(fmt.Errorf("the render used more than %d bytes of memory and was stopped (%d at its peak)", memoryLimit, used))
	}
}

func peakMemory() uint64 {
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		scanner := bufio.NewScanner(bytes.NewReader(status))
		for scanner.Scan() {
			if rest, ok := bytes.CutPrefix(scanner.Bytes(), []byte("VmHWM:")); ok {
				kb, err := strconv.ParseUint(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte("kB")))), 10, 64)
				if err == nil {
					return kb * 1024
				}
			}
		}
	}
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(samples)
	return samples[0].Value.Uint64() - samples[1].Value.Uint64()
}
