package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetSocketAddress;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The quorum settings come through the config module with Kafka's names and defaults, and fail with one line. */
class QuorumConfigTest {

    @Test
    void absentTimeoutsTakeKafkasDefaultsAndOtherComponentsKeysAreIgnored() {
        QuorumConfig config = QuorumConfig.from(Map.of(QuorumConfig.VOTERS, "1@a:9093, 2@[::1]:9094",
                "node.id", "1", "log.dirs", "/tmp/x"));
        assertEquals(Map.of(1, InetSocketAddress.createUnresolved("a", 9093),
                2, InetSocketAddress.createUnresolved("::1", 9094)), config.voters());
        assertEquals(1000, config.electionTimeoutMs());
        assertEquals(2000, config.fetchTimeoutMs());
        assertEquals(1000, config.electionBackoffMaxMs());
        assertEquals(2000, config.requestTimeoutMs());
    }

    @Test
    void givenTimeoutsAreReadInMilliseconds() {
        QuorumConfig config = QuorumConfig.from(Map.of(QuorumConfig.VOTERS, "1@a:1",
                QuorumConfig.ELECTION_TIMEOUT_MS, "300", QuorumConfig.FETCH_TIMEOUT_MS, " 600 ",
                QuorumConfig.ELECTION_BACKOFF_MAX_MS, "50", QuorumConfig.REQUEST_TIMEOUT_MS, "400"));
        assertEquals(300, config.electionTimeoutMs());
        assertEquals(600, config.fetchTimeoutMs());
        assertEquals(50, config.electionBackoffMaxMs());
        assertEquals(400, config.requestTimeoutMs());
    }

    @Test
    void aMissingVoterSetIsRefusedNamingTheKey() {
        assertEquals("Missing required configuration: one of controller.quorum.voters (id@host:port,...) and"
                + " controller.quorum.bootstrap.servers (host:port,...) must be set", rejection(Map.of()));
    }

    @Test
    void bootstrapServersStandInForTheVotersButNotBesideThem() {
        Map<String, String> servers = Map.of(QuorumConfig.BOOTSTRAP_SERVERS, "a:9093, [::1]:9094");
        assertEquals(java.util.List.of(InetSocketAddress.createUnresolved("a", 9093),
                InetSocketAddress.createUnresolved("::1", 9094)), QuorumConfig.bootstrapServers(servers));
        Map<Integer, InetSocketAddress> learned = Map.of(3, InetSocketAddress.createUnresolved("a", 9093));
        assertEquals(learned, QuorumConfig.from(servers, learned).voters());
        assertEquals("set controller.quorum.voters or controller.quorum.bootstrap.servers, not both",
                rejection(Map.of(QuorumConfig.VOTERS, "1@a:1", QuorumConfig.BOOTSTRAP_SERVERS, "a:1")));
        assertEquals("controller.quorum.bootstrap.servers entry 'a' is not host:port", assertThrows(
                IllegalArgumentException.class, () -> QuorumConfig.bootstrapServers(
                        Map.of(QuorumConfig.BOOTSTRAP_SERVERS, "a"))).getMessage());
    }

    @Test
    void aBadVoterEntryIsNamedWithWhatIsWrongWithIt() {
        assertEquals("controller.quorum.voters entry 'x' is not id@host:port",
                rejection(Map.of(QuorumConfig.VOTERS, "1@a:1,x")));
        assertEquals("controller.quorum.voters entry 'one@a:1' has a non-numeric id or port",
                rejection(Map.of(QuorumConfig.VOTERS, "one@a:1")));
        assertEquals("controller.quorum.voters entry '1@a:70000' has an id or port out of range",
                rejection(Map.of(QuorumConfig.VOTERS, "1@a:70000")));
        assertEquals("controller.quorum.voters names voter 1 twice", rejection(Map.of(QuorumConfig.VOTERS, "1@a:1,1@b:2")));
    }

    @Test
    void aTimeoutThatIsNotAPositiveIntIsRefusedNamingTheKey() {
        assertEquals("Invalid value 0 for configuration controller.quorum.election.timeout.ms: expected an int at "
                + "least 1", rejection(Map.of(QuorumConfig.VOTERS, "1@a:1", QuorumConfig.ELECTION_TIMEOUT_MS, "0")));
        assertEquals("Invalid value 2s for configuration controller.quorum.fetch.timeout.ms: expected an int at "
                + "least 1", rejection(Map.of(QuorumConfig.VOTERS, "1@a:1", QuorumConfig.FETCH_TIMEOUT_MS, "2s")));
    }

    private static String rejection(Map<String, String> properties) {
        return assertThrows(IllegalArgumentException.class, () -> QuorumConfig.from(properties)).getMessage();
    }
}
