package io.kraft.server.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

/**
 * What this JVM spent between two points: its CPU time over all threads and its garbage collectors' time. Unlike a
 * rate over wall-clock time, the CPU spent per record barely moves when other processes load the machine, so it is
 * the figure two images (or two builds) can be compared by on a shared machine.
 */
record ProcessCost(long cpuNanos, long gcMillis) {

    /** What the JVM has spent since it started. */
    static ProcessCost now() {
        long gc = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            gc += Math.max(0, collector.getCollectionTime());
        }
        return new ProcessCost(((com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime(), gc);
    }

    /** What was spent from {@code start} to this point. */
    ProcessCost since(ProcessCost start) {
        return new ProcessCost(cpuNanos - start.cpuNanos, gcMillis - start.gcMillis);
    }

    double cpuSeconds() {
        return cpuNanos / 1e9;
    }

    /** The thread's CPU time so far in milliseconds, or -1 if no live thread has that name. */
    static long threadCpuMs(String threadName) {
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals(threadName)) {
                long nanos = ManagementFactory.getThreadMXBean().getThreadCpuTime(thread.getId());
                return nanos < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(nanos);
            }
        }
        return -1;
    }
}
