package io.kraft.server;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.raft.Voter;
import io.kraft.raft.VoterSet;
import io.kraft.raft.file.BootstrapVotersFile;
import io.kraft.storage.MetaProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A controller formatted with a bootstrap voter set (KIP-853) uses it rather than {@code controller.quorum.voters}:
 * listed beside a second controller that never starts, a static quorum of two could not elect anyone, while a
 * dynamic quorum formatted standalone elects its one voter.
 */
class DynamicQuorumBootstrapTest {
    private static final String CLUSTER_ID = MetaProperties.randomUuid();

    @TempDir
    Path dir;

    private final TestFaultHandler faults = new TestFaultHandler();
    private ControllerNode controller;

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
        faults.assertNone();
    }

    @Test
    void aStandaloneControllerLeadsAloneWhateverTheStaticListSays() throws Exception {
        int port = freePort();
        Path metadata = dir.resolve("controller-1");
        Files.createDirectories(metadata);
        MetaProperties meta = MetaProperties.forNewDirectory(CLUSTER_ID, 1);
        meta.write(metadata);
        BootstrapVotersFile.write(metadata, VoterSet.of(List.of(new Voter(1, meta.directoryUuid(),
                "localhost:" + port))));
        Map<String, String> properties = Map.of(
                "controller.quorum.voters", "1@localhost:" + port + ",2@localhost:" + freePort(),
                "controller.quorum.election.timeout.ms", "300", "controller.quorum.fetch.timeout.ms", "600");
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
        controller = ControllerNode.start(1, CLUSTER_ID, metadata, properties, topicConfigs, faults);
        awaitTrue(controller::isQuorumLeader, "the standalone voter to lead");
        assertEquals(1, controller.nodeId());
    }
}
