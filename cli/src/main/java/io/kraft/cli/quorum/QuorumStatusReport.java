package io.kraft.cli.quorum;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code describe --status}: one {@code Key: value} line per field, with the keys of Kafka's
 * {@code kafka-metadata-quorum.sh describe --status} and its 3.x value formats (voters and observers as
 * {@code [1,2,3]}, by id; Kafka 3.9+ prints voters as objects with endpoints instead, which this tool does not).
 */
public final class QuorumStatusReport {
    /** Values start in this column, as in Kafka's output, so the report lines up. */
    private static final int VALUE_COLUMN = 24;

    private QuorumStatusReport() {
    }

    /** The report's lines in Kafka's order. */
    public static List<String> lines(QuorumInfo quorum) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("ClusterId", quorum.clusterId());
        fields.put("LeaderId", Integer.toString(quorum.leaderId()));
        fields.put("LeaderEpoch", Integer.toString(quorum.leaderEpoch()));
        fields.put("HighWatermark", Long.toString(quorum.highWatermark()));
        fields.put("MaxFollowerLag", Long.toString(maxFollowerLag(quorum)));
        fields.put("MaxFollowerLagTimeMs", Long.toString(maxFollowerLagTimeMs(quorum)));
        fields.put("CurrentVoters", idList(quorum.voters()));
        fields.put("CurrentObservers", idList(quorum.observers()));
        List<String> lines = new ArrayList<>();
        fields.forEach((key, value) -> lines.add(String.format("%-" + VALUE_COLUMN + "s%s", key + ":", value)));
        return lines;
    }

    /** How many entries the furthest-behind voter lacks of the leader's log (0 for a lone voter). */
    static long maxFollowerLag(QuorumInfo quorum) {
        long leaderEnd = leaderEndOffset(quorum);
        return quorum.voters().stream().mapToLong(v -> Math.max(0, leaderEnd - v.logEndOffset())).max().orElse(0);
    }

    /**
     * How long the furthest-behind voter has not been caught up: the leader's caught-up time (now) minus that
     * voter's; 0 when no voter lags; -1 when that voter was never caught up.
     */
    static long maxFollowerLagTimeMs(QuorumInfo quorum) {
        long leaderEnd = leaderEndOffset(quorum);
        QuorumInfo.Replica laggiest = quorum.voters().stream()
                .max(Comparator.comparingLong((QuorumInfo.Replica v) -> leaderEnd - v.logEndOffset())
                        .thenComparingLong(v -> -v.lastCaughtUpTimestampMs()))
                .orElse(null);
        boolean nobodyLags = laggiest == null || laggiest.replicaId() == quorum.leaderId()
                || (leaderEnd <= laggiest.logEndOffset() && laggiest.lastCaughtUpTimestampMs() >= 0);
        if (nobodyLags) {
            return 0;
        }
        long leaderCaughtUp = quorum.leader().map(QuorumInfo.Replica::lastCaughtUpTimestampMs).orElse(-1L);
        if (leaderCaughtUp < 0 || laggiest.lastCaughtUpTimestampMs() < 0) {
            return -1;
        }
        return Math.max(0, leaderCaughtUp - laggiest.lastCaughtUpTimestampMs());
    }

    private static long leaderEndOffset(QuorumInfo quorum) {
        return quorum.leader().map(QuorumInfo.Replica::logEndOffset).orElse(quorum.highWatermark());
    }

    private static String idList(List<QuorumInfo.Replica> replicas) {
        return replicas.stream().map(QuorumInfo.Replica::replicaId).sorted().map(String::valueOf)
                .collect(Collectors.joining(",", "[", "]"));
    }
}
