package io.kraft.broker.network;

import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Samples this JVM's heap in use, Netty's direct memory and the process's resident set every few milliseconds
 * on a daemon thread, keeping the peaks, so abuse tests can report what an attack cost.
 */
public final class MemorySampler implements AutoCloseable {
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long peakHeapBytes;
    private volatile long peakDirectBytes;
    private volatile long peakRssBytes;

    public MemorySampler() {
        thread = new Thread(this::sample, "memory-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void sample() {
        while (running) {
            peakHeapBytes = Math.max(peakHeapBytes, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
            peakDirectBytes = Math.max(peakDirectBytes, PlatformDependent.usedDirectMemory());
            peakRssBytes = Math.max(peakRssBytes, rssBytes());
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The process's resident set now, from /proc (0 where there is none). */
    public static long rssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    public long peakHeapBytes() {
        return peakHeapBytes;
    }

    public long peakDirectBytes() {
        return peakDirectBytes;
    }

    public long peakRssBytes() {
        return peakRssBytes;
    }

    /** One line with the peaks in MiB, for a test's output. */
    public String report(String what) {
        return String.format("%s: peak heap used %d MiB, peak Netty direct %d MiB, peak RSS %d MiB (max heap %d MiB)",
                what, peakHeapBytes >> 20, peakDirectBytes >> 20, peakRssBytes >> 20,
                Runtime.getRuntime().maxMemory() >> 20);
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
