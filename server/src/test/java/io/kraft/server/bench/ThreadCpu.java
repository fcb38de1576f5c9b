package io.kraft.server.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * This JVM's CPU time per kind of thread, read from {@code /proc/self/task}: Java threads and the native ones the
 * MXBeans do not see (JIT compilers, GC workers, RocksDB's flush and compaction threads). Names lose their numbers,
 * so that the three controllers' {@code raft-node-1..3} add up to one {@code raft-node-#}.
 */
final class ThreadCpu {
    private static final Path TASKS = Path.of("/proc/self/task");
    /** Linux reports utime and stime in clock ticks of 1/100 s on every platform the JVM runs on here. */
    private static final long MS_PER_TICK = 10;

    private final Map<String, Long> cpuMsByKind;

    private ThreadCpu(Map<String, Long> cpuMsByKind) {
        this.cpuMsByKind = cpuMsByKind;
    }

    /** What each kind of thread has spent so far (threads that ended are gone: a kind's time may drop). */
    static ThreadCpu now() {
        Map<String, Long> byKind = new HashMap<>();
        if (!Files.isDirectory(TASKS)) {
            return new ThreadCpu(byKind);
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
                } catch (NoSuchFileException ended) {
                    continue;
                }
                // pid (comm) state ... : comm may hold spaces and parentheses, so split after the last ')'.
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                String[] fields = stat.substring(close + 2).split(" ");
                long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                byKind.merge(kind(stat.substring(open + 1, close)), ticks * MS_PER_TICK, Long::sum);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + TASKS, e);
        }
        return new ThreadCpu(byKind);
    }

    static String kind(String threadName) {
        return threadName.replaceAll("[0-9]+", "#");
    }

    /** The kinds that spent the most since {@code start}, largest first, as "name 1.2 s, ...". */
    String topSince(ThreadCpu start, int count) {
        List<Map.Entry<String, Long>> spent = new ArrayList<>();
        for (Map.Entry<String, Long> kind : cpuMsByKind.entrySet()) {
            long delta = kind.getValue() - start.cpuMsByKind.getOrDefault(kind.getKey(), 0L);
            if (delta > 0) {
                spent.add(Map.entry(kind.getKey(), delta));
            }
        }
        spent.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        return spent.stream().limit(count)
                .map(kind -> String.format("%s %.2f s", kind.getKey(), kind.getValue() / 1000.0))
                .collect(Collectors.joining(", "));
    }
}
