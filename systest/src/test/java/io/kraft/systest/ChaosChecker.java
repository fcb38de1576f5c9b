package io.kraft.systest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * Judges a fault-injection run from its {@link ChaosHistory} and the final log (every partition read from the start
 * by a fresh consumer after healing): no acknowledged value missing or at another offset than acknowledged (or in
 * another partition, when the acknowledgement carried no offset), no value
 * twice, each producer's values in send order within a partition, nothing the group read missing from the final
 * log, and committed offsets never below an earlier acknowledged commit.
 */
final class ChaosChecker {
    private static final int EXAMPLES = 10;
    /**
     * The offset the Java producer reports for a retried batch the leader answered DUPLICATE_SEQUENCE_NUMBER:
     * written, but before the leader's cache of the producer's last five batches (possible when batches of one
     * partition were in flight to the old and the new leader at once), so only its partition is known.
     */
    static final long UNKNOWN_OFFSET = -1;

    /** The verdict: counts and a few examples of each violation. */
    record Result(int acked, int read, int lost, int duplicated, int misplaced, int outOfOrder, int readThenLost,
                  int commitRegressions, long longestGapMs, long longestGapStartNanos, List<String> examples) {
        boolean ok() {
            return lost == 0 && duplicated == 0 && misplaced == 0 && outOfOrder == 0 && readThenLost == 0
                    && commitRegressions == 0;
        }
    }

    private ChaosChecker() {
    }

    static Result check(ChaosHistory history, List<ChaosHistory.Read> finalLog) {
        List<String> examples = new ArrayList<>();
        Map<String, ChaosHistory.Read> byValue = new HashMap<>();
        int duplicated = 0;
        for (ChaosHistory.Read record : finalLog) {
            ChaosHistory.Read first = byValue.putIfAbsent(record.value(), record);
            if (first != null) {
                duplicated++;
                example(examples, "duplicate " + record.value() + " at " + first.partition() + "@" + first.offset()
                        + " and " + record.partition() + "@" + record.offset());
            }
        }
        List<ChaosHistory.Ack> acks = history.acks();
        int lost = 0;
        int misplaced = 0;
        for (ChaosHistory.Ack ack : acks) {
            ChaosHistory.Read found = byValue.get(ack.value());
            if (found == null) {
                lost++;
                example(examples, "lost " + ack.value() + " acknowledged at " + ack.partition() + "@" + ack.offset());
            } else if (found.partition() != ack.partition()
                    || (ack.offset() != UNKNOWN_OFFSET && found.offset() != ack.offset())) {
                misplaced++;
                example(examples, "misplaced " + ack.value() + " acknowledged at " + ack.partition() + "@"
                        + ack.offset() + " but found at " + found.partition() + "@" + found.offset());
            }
        }
        int outOfOrder = outOfOrder(finalLog, examples);
        int readThenLost = 0;
        for (ChaosHistory.Read read : new HashSet<>(history.reads())) {
            ChaosHistory.Read found = byValue.get(read.value());
            if (found == null || found.partition() != read.partition() || found.offset() != read.offset()) {
                readThenLost++;
                example(examples, "the group read " + read.value() + " at " + read.partition() + "@" + read.offset()
                        + " but the final log has " + (found == null ? "nothing" : found.partition() + "@"
                        + found.offset()));
            }
        }
        int commitRegressions = commitRegressions(history.commits(), examples);
        long[] gap = longestGap(acks);
        return new Result(acks.size(), finalLog.size(), lost, duplicated, misplaced, outOfOrder, readThenLost,
                commitRegressions, gap[0] / 1_000_000, gap[1], List.copyOf(examples));
    }

    /** Values of one producer in one partition must appear in increasing sequence order. */
    private static int outOfOrder(List<ChaosHistory.Read> finalLog, List<String> examples) {
        Map<String, Long> lastSequence = new HashMap<>();
        int violations = 0;
        List<ChaosHistory.Read> inLogOrder = new ArrayList<>(finalLog);
        inLogOrder.sort(Comparator.comparingInt(ChaosHistory.Read::partition)
                .thenComparingLong(ChaosHistory.Read::offset));
        for (ChaosHistory.Read record : inLogOrder) {
            int dash = record.value().lastIndexOf('-');
            String key = record.value().substring(0, dash) + "/" + record.partition();
            long sequence = Long.parseLong(record.value().substring(dash + 1));
            Long previous = lastSequence.put(key, sequence);
            if (previous != null && previous >= sequence) {
                violations++;
                example(examples, "out of order in partition " + record.partition() + ": " + record.value()
                        + " at offset " + record.offset() + " after sequence " + previous);
            }
        }
        return violations;
    }

    private static int commitRegressions(List<ChaosHistory.Commit> commits, List<String> examples) {
        Map<Integer, Long> highest = new HashMap<>();
        int regressions = 0;
        for (ChaosHistory.Commit commit : commits) {
            if (commit.commit()) {
                Long previous = highest.get(commit.partition());
                if (previous != null && commit.offset() < previous) {
                    regressions++;
                    example(examples, "commit of " + commit.offset() + " to partition " + commit.partition()
                            + " after a commit of " + previous);
                }
                highest.merge(commit.partition(), commit.offset(), Math::max);
            } else if (commit.offset() < commit.committedBefore()) {
                regressions++;
                example(examples, "partition " + commit.partition() + " read back committed offset "
                        + commit.offset() + " after a commit of " + commit.committedBefore() + " was acknowledged");
            }
        }
        return regressions;
    }

    /** The longest time between two consecutive acknowledgements, of any producer: its length and start, in nanos. */
    private static long[] longestGap(List<ChaosHistory.Ack> acks) {
        long[] times = acks.stream().mapToLong(ChaosHistory.Ack::atNanos).sorted().toArray();
        long[] longest = {0, times.length > 0 ? times[0] : 0};
        for (int i = 1; i < times.length; i++) {
            if (times[i] - times[i - 1] > longest[0]) {
                longest[0] = times[i] - times[i - 1];
                longest[1] = times[i - 1];
            }
        }
        return longest;
    }

    private static void example(List<String> examples, String line) {
        if (examples.size() < EXAMPLES) {
            examples.add(line);
        }
    }
}
