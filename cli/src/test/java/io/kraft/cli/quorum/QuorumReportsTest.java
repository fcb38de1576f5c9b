package io.kraft.cli.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The --status and --replication formats, from quorum descriptions built by hand. */
class QuorumReportsTest {
    private static final long NOW = 1_700_000_000_000L;

    private static QuorumInfo threeVotersOneObserver() {
        return new QuorumInfo("MkU3OEVBNTcwNTJENDM2Qg", 2, 7, 120,
                // The leader reports itself first; the reports order members by id.
                List.of(new QuorumInfo.Replica(2, 130, NOW, NOW),
                        new QuorumInfo.Replica(3, 130, NOW - 10, NOW - 10),
                        new QuorumInfo.Replica(1, 100, NOW - 40, NOW - 900)),
                List.of(new QuorumInfo.Replica(5, 90, NOW - 20, -1)));
    }

    @Test
    void statusHasKafkasKeysAndValueColumn() {
        assertEquals(List.of(
                "ClusterId:              MkU3OEVBNTcwNTJENDM2Qg",
                "LeaderId:               2",
                "LeaderEpoch:            7",
                "HighWatermark:          120",
                "MaxFollowerLag:         30",
                "MaxFollowerLagTimeMs:   900",
                "CurrentVoters:          [1,2,3]",
                "CurrentObservers:       [5]"), QuorumStatusReport.lines(threeVotersOneObserver()));
    }

    @Test
    void aLoneVoterHasNoLag() {
        QuorumInfo lone = new QuorumInfo("id", 1, 1, 19, List.of(new QuorumInfo.Replica(1, 19, NOW, NOW)), List.of());
        assertEquals(0, QuorumStatusReport.maxFollowerLag(lone));
        assertEquals(0, QuorumStatusReport.maxFollowerLagTimeMs(lone));
        assertEquals("CurrentObservers:       []", QuorumStatusReport.lines(lone).get(7));
    }

    @Test
    void aVoterThatNeverCaughtUpHasAnUnknownLagTime() {
        QuorumInfo quorum = new QuorumInfo("id", 1, 3, 10, List.of(new QuorumInfo.Replica(1, 10, NOW, NOW),
                new QuorumInfo.Replica(2, 0, -1, -1), new QuorumInfo.Replica(3, 10, NOW, NOW)), List.of());
        assertEquals(10, QuorumStatusReport.maxFollowerLag(quorum));
        assertEquals(-1, QuorumStatusReport.maxFollowerLagTimeMs(quorum));
    }

    @Test
    void followersInStepHaveNoLagTime() {
        QuorumInfo quorum = new QuorumInfo("id", 1, 3, 10, List.of(new QuorumInfo.Replica(1, 10, NOW, NOW),
                new QuorumInfo.Replica(2, 10, NOW - 5, NOW - 5)), List.of());
        assertEquals(0, QuorumStatusReport.maxFollowerLag(quorum));
        assertEquals(0, QuorumStatusReport.maxFollowerLagTimeMs(quorum));
    }

    /** A static voter's directory id: Kafka's zero uuid. */
    private static final String ZERO = QuorumInfo.Replica.UNKNOWN_DIRECTORY;

    @Test
    void replicationListsLeaderFollowersThenObserversInAlignedColumns() {
        assertEquals(List.of(
                "NodeId  DirectoryId             LogEndOffset  Lag  LastFetchTimestamp  LastCaughtUpTimestamp"
                        + "  Status",
                "2       " + ZERO + "  130           0    1700000000000       1700000000000          Leader",
                "1       " + ZERO + "  100           30   1699999999960       1699999999100          Follower",
                "3       " + ZERO + "  130           0    1699999999990       1699999999990          Follower",
                "5       " + ZERO + "  90            40   1699999999980       -1                     Observer"),
                ReplicationTable.lines(threeVotersOneObserver(), false, NOW));
    }

    @Test
    void humanReadableTimesSayHowLongAgo() {
        List<String> lines = ReplicationTable.lines(threeVotersOneObserver(), true, NOW);
        assertEquals("1       " + ZERO + "  100           30   40 ms ago           900 ms ago             Follower",
                lines.get(2));
        assertEquals("5       " + ZERO + "  90            40   20 ms ago           -1                     Observer",
                lines.get(4));
    }

    @Test
    void hostPortsParseWithOneLineComplaints() {
        assertEquals(new QuorumClient.HostPort("localhost", 9093), QuorumClient.HostPort.parse("localhost:9093"));
        assertEquals(new QuorumClient.HostPort("::1", 9093), QuorumClient.HostPort.parse("[::1]:9093"));
        assertEquals("[::1]:9093", QuorumClient.HostPort.parse("[::1]:9093").toString());
        assertEquals("'localhost' is not of the form HOST:PORT", assertThrowsMessage("localhost"));
        assertEquals("'host:x' is not of the form HOST:PORT", assertThrowsMessage("host:x"));
        assertEquals("port 70000 in 'host:70000' is not between 1 and 65535", assertThrowsMessage("host:70000"));
    }

    private static String assertThrowsMessage(String text) {
        return org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> QuorumClient.HostPort.parse(text)).getMessage();
    }
}
