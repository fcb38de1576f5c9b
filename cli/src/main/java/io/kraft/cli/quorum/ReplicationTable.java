package io.kraft.cli.quorum;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code describe --replication}: one row per member (the leader, then the other voters, then observers, each by
 * id) under the columns of Kafka's {@code kafka-metadata-quorum.sh describe --replication}, aligned with spaces.
 * Timestamps are epoch milliseconds, or "N ms ago" when human-readable; -1 means never.
 */
public final class ReplicationTable {
    static final List<String> COLUMNS = List.of("NodeId", "DirectoryId", "LogEndOffset", "Lag", "LastFetchTimestamp",
            "LastCaughtUpTimestamp", "Status");
    private static final int COLUMN_GAP = 2;

    private ReplicationTable() {
    }

    /**
     * The header and one row per member.
     *
     * @param nowMs the time "ago" is measured from when {@code humanReadable}
     */
    public static List<String> lines(QuorumInfo quorum, boolean humanReadable, long nowMs) {
        long leaderEnd = quorum.leader().map(QuorumInfo.Replica::logEndOffset).orElse(quorum.highWatermark());
        List<List<String>> rows = new ArrayList<>();
        rows.add(COLUMNS);
        Comparator<QuorumInfo.Replica> byId = Comparator.comparingInt(QuorumInfo.Replica::replicaId);
        quorum.leader().ifPresent(leader -> rows.add(row(leader, "Leader", leaderEnd, humanReadable, nowMs)));
        quorum.voters().stream().filter(v -> v.replicaId() != quorum.leaderId()).sorted(byId)
                .forEach(v -> rows.add(row(v, "Follower", leaderEnd, humanReadable, nowMs)));
        quorum.observers().stream().sorted(byId)
                .forEach(o -> rows.add(row(o, "Observer", leaderEnd, humanReadable, nowMs)));
        return align(rows);
    }

    private static List<String> row(QuorumInfo.Replica replica, String status, long leaderEnd, boolean humanReadable,
                                    long nowMs) {
        return List.of(Integer.toString(replica.replicaId()), replica.directoryId(),
                Long.toString(replica.logEndOffset()),
                Long.toString(Math.max(0, leaderEnd - replica.logEndOffset())),
                timestamp(replica.lastFetchTimestampMs(), humanReadable, nowMs),
                timestamp(replica.lastCaughtUpTimestampMs(), humanReadable, nowMs), status);
    }

    private static String timestamp(long timestampMs, boolean humanReadable, long nowMs) {
        if (!humanReadable || timestampMs < 0) {
            return Long.toString(timestampMs);
        }
        return Math.max(0, nowMs - timestampMs) + " ms ago";
    }

    private static List<String> align(List<List<String>> rows) {
        int[] widths = new int[COLUMNS.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        List<String> lines = new ArrayList<>();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(row.get(i));
                if (i < row.size() - 1) {
                    line.append(" ".repeat(widths[i] - row.get(i).length() + COLUMN_GAP));
                }
            }
            lines.add(line.toString());
        }
        return lines;
    }
}
