package io.kraft.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How long an embedded cluster takes to be ready for clients, measured as a test suite meets it: the first cluster of
 * the JVM (cold classes), then single nodes and 3-node clusters started after it, each the median of several runs.
 * Run with {@code mvn -B -q -pl testkit -am -Ptestkit-bench test-compile exec:exec}.
 */
public final class ReadyTimeBenchmark {
    private static final int RUNS = Integer.getInteger("bench.runs", 7);

    private ReadyTimeBenchmark() {
    }

    public static void main(String[] args) {
        System.out.printf("first single node of the JVM: %d ms%n", startAndCloseMs(1));
        System.out.printf("single node after the first: median %d ms of %d runs%n", medianMs(1), RUNS);
        System.out.printf("3 combined nodes: median %d ms of %d runs%n", medianMs(3), RUNS);
    }

    private static long medianMs(int nodes) {
        List<Long> times = new ArrayList<>();
        for (int run = 0; run < RUNS; run++) {
            times.add(startAndCloseMs(nodes));
        }
        Collections.sort(times);
        return times.get(times.size() / 2);
    }

    /** From building the cluster to every broker serving clients; closing is not timed. */
    private static long startAndCloseMs(int nodes) {
        long start = System.nanoTime();
        try (KraftCluster cluster = KraftCluster.builder().nodes(nodes).start()) {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        }
    }
}
