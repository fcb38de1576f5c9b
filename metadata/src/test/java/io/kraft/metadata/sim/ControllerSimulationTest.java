package io.kraft.metadata.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.metadata.controller.CreateTopicResult;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Named fault scenarios on the simulated cluster; each claim is checked together with every invariant. */
class ControllerSimulationTest {
    private static final long BOUND_MS = 20_000;

    private static SimController awaitActive(SimCluster cluster) {
        assertTrue(cluster.runUntil(() -> cluster.activeController().isPresent(), BOUND_MS),
                cluster.describe("no active controller"));
        return cluster.activeController().orElseThrow();
    }

    /** Runs a request on the active controller directly and waits for its answer. */
    private static <T> CompletableFuture<T> onActive(SimCluster cluster,
                                                     Function<QuorumController, CompletableFuture<T>> request) {
        CompletableFuture<T> answer = request.apply(awaitActive(cluster).controller);
        assertTrue(cluster.runUntil(answer::isDone, BOUND_MS), cluster.describe("no answer"));
        return answer;
    }

    /** Creates a topic once the brokers are up, so that replicas can be placed. */
    private static CreateTopicResult createTopic(SimCluster cluster, String name, int partitions, int replicas)
            throws Exception {
        assertTrue(cluster.runUntil(cluster::brokersUnfenced, BOUND_MS), cluster.describe("brokers stay fenced"));
        return onActive(cluster, c -> c.createTopic(CreateTopicRequest.of(name, partitions, replicas))).get();
    }

    @Test
    void activeControllerServesOnlyOnceItsEpochIsReadyAndEveryControllerAgrees() throws Exception {
        SimCluster cluster = new SimCluster(1, 3, 3);
        SimController active = awaitActive(cluster);
        assertEquals(cluster.raft().epoch(), active.controller.activeEpoch().getAsInt());
        assertEquals(cluster.raft().leaderId(), active.id);
        assertTrue(cluster.runUntil(cluster::brokersUnfenced, BOUND_MS), cluster.describe("brokers stay fenced"));
        CreateTopicResult created = createTopic(cluster, "orders", 3, 3);
        assertTrue(cluster.runUntil(cluster::controllersCaughtUp, BOUND_MS));
        for (SimController controller : cluster.controllers().values()) {
            assertEquals(created.topicId(), controller.controller.image().topics().topic("orders").id());
            if (controller != active) {
                CompletableFuture<?> refused = controller.controller.deleteTopic("orders");
                assertTrue(cluster.runUntil(refused::isDone, BOUND_MS));
                ExecutionException error = assertThrows(ExecutionException.class, refused::get);
                assertEquals(Errors.NOT_CONTROLLER, ((ControllerException) error.getCause()).error());
            }
        }
    }

    @Test
    void newActiveControllerTakesOverWhenTheLeaderIsCutOffFromTheQuorum() throws Exception {
        SimCluster cluster = new SimCluster(2, 3, 3);
        SimController old = awaitActive(cluster);
        int oldEpoch = old.controller.activeEpoch().getAsInt();
        createTopic(cluster, "before", 1, 1);

        cluster.raft().isolate(old.id);
        assertTrue(cluster.runUntil(() -> cluster.activeController().filter(c -> c.id != old.id).isPresent(),
                BOUND_MS), cluster.describe("no other controller took over"));
        SimController successor = cluster.activeController().orElseThrow();
        assertTrue(successor.controller.activeEpoch().getAsInt() > oldEpoch);
        createTopic(cluster, "after", 1, 1);
        assertFalse(old.controller.image().topics().topicsByName().containsKey("after"),
                "it hears nothing while cut off");

        cluster.raft().heal(old.id);
        assertTrue(cluster.runUntil(() -> old.controller.activeEpoch().isEmpty() && cluster.controllersCaughtUp(),
                BOUND_MS), cluster.describe("the old leader did not step down and catch up"));
        assertTrue(old.controller.image().topics().topicsByName().containsKey("after"));
    }

    @Test
    void acknowledgedTopicSurvivesTheActiveControllersCrash() throws Exception {
        SimCluster cluster = new SimCluster(3, 3, 3);
        CreateTopicResult created = createTopic(cluster, "durable", 2, 2);
        int crashed = awaitActive(cluster).id;
        cluster.crashController(crashed);

        SimController successor = awaitActive(cluster);
        assertNotEquals(crashed, successor.id);
        assertEquals(created.topicId(), successor.controller.image().topics().topic("durable").id());
        ExecutionException again = assertThrows(ExecutionException.class,
                () -> createTopic(cluster, "durable", 1, 1));
        assertEquals(Errors.TOPIC_ALREADY_EXISTS, ((ControllerException) again.getCause()).error());
    }

    @Test
    void brokerThatStopsHeartbeatingIsFencedAndLosesItsLeadershipsAndIsrPlaces() throws Exception {
        SimCluster cluster = new SimCluster(4, 3, 3);
        assertTrue(cluster.runUntil(cluster::brokersUnfenced, BOUND_MS), cluster.describe("brokers stay fenced"));
        createTopic(cluster, "replicated", 6, 3);
        SimBroker silent = cluster.brokers().get(100);
        silent.stop(false); // a hung process: its connection stays open, only the session runs out

        assertTrue(cluster.runUntil(() -> cluster.committedLog().image().cluster().broker(100).fenced(),
                3 * SimBroker.SESSION_TIMEOUT_MS), cluster.describe("the silent broker is not fenced"));
        TopicImage topic = cluster.committedLog().image().topics().topic("replicated");
        topic.partitions().forEach((partitionId, partition) -> {
            assertNotEquals(100, partition.leader(), "partition " + partitionId + " " + partition);
            assertFalse(partition.isr().contains(100), "partition " + partitionId + " " + partition);
        });
    }

    @Test
    void brokerWhoseConnectionClosesIsFencedBeforeItsSessionWouldExpire() {
        SimCluster cluster = new SimCluster(5, 3, 3);
        assertTrue(cluster.runUntil(cluster::brokersUnfenced, BOUND_MS), cluster.describe("brokers stay fenced"));
        long stoppedAtMs = cluster.nowMs();
        cluster.brokers().get(101).stop(true);
        assertTrue(cluster.runUntil(() -> cluster.committedLog().image().cluster().broker(101).fenced(), BOUND_MS));
        assertTrue(cluster.nowMs() - stoppedAtMs < SimBroker.SESSION_TIMEOUT_MS, "fenced after "
                + (cluster.nowMs() - stoppedAtMs) + " ms, not within the connection-loss grace");
    }

    @Test
    void restartedBrokerGetsAHigherEpochAndIsUnfencedAgain() {
        SimCluster cluster = new SimCluster(6, 3, 3);
        assertTrue(cluster.runUntil(cluster::brokersUnfenced, BOUND_MS), cluster.describe("brokers stay fenced"));
        SimBroker broker = cluster.brokers().get(102);
        long firstEpoch = broker.brokerEpoch();
        broker.stop(true);
        cluster.runFor(SimBroker.SESSION_TIMEOUT_MS);
        broker.start();
        assertTrue(cluster.runUntil(cluster::brokersUnfenced, BOUND_MS), cluster.describe("not unfenced again"));
        BrokerRegistration registration = cluster.committedLog().image().cluster().broker(102);
        assertTrue(registration.epoch() > firstEpoch, registration + " after epoch " + firstEpoch);
        assertEquals(broker.brokerEpoch(), registration.epoch());
    }

    @Test
    void controllerRestartedAfterTheLogPrefixWentCatchesUpFromASnapshot() throws Exception {
        SimCluster cluster = new SimCluster(7, 3, 3);
        int follower = awaitActive(cluster).id == 1 ? 2 : 1;
        cluster.crashController(follower);
        int topic = 0;
        while (cluster.raft().logStartOffset() == 0) {
            assertTrue(topic < 200, "the log prefix never went");
            createTopic(cluster, "t" + topic++, 3, 2);
        }
        int transfersBefore = cluster.raft().snapshotTransfers();
        cluster.restartController(follower);
        assertTrue(cluster.runUntil(cluster::controllersCaughtUp, BOUND_MS), cluster.describe("no catch-up"));
        assertTrue(cluster.raft().snapshotTransfers() > transfersBefore, "it could only catch up from a snapshot");
        MetadataImage image = cluster.controllers().get(follower).controller.image();
        assertEquals(cluster.committedLog().image(), image);
        assertInstanceOf(TopicImage.class, image.topics().topic("t0"));
    }

    @Test
    void leadershipReturnsToThePreferredReplicasByItselfAfterEachBrokerRestarts() throws Exception {
        SimCluster cluster = new SimCluster(7, 3, 3);
        CreateTopicResult created = createTopic(cluster, "balanced", 6, 3);
        Supplier<TopicImage> topic = () -> cluster.committedLog().image().topics()
                .topic(created.topicId());
        for (int stopped : cluster.brokers().keySet()) {
            cluster.brokers().get(stopped).stop(true);
            assertTrue(cluster.runUntil(() -> topic.get().partitions().values().stream()
                    .noneMatch(p -> p.leader() == stopped), BOUND_MS), cluster.describe("leadership stays"));
            cluster.brokers().get(stopped).start();
            assertTrue(cluster.runUntil(cluster::brokersUnfenced, BOUND_MS), cluster.describe("broker stays fenced"));
        }
        // The sim's leaders pick random ISRs, so each preferred replica is in sync at some balance check (every 3 s);
        // once it leads, only fencing moves leadership again.
        assertTrue(cluster.runUntil(() -> topic.get().partitions().values().stream()
                .allMatch(p -> p.leader() == p.preferredLeader()), 600_000), cluster.describe("leadership skewed: " + topic.get().partitions()));
    }

    @Test
    void aReassignmentCompletesUnderTheNextControllerWhenTheOneThatStartedItCrashes() throws Exception {
        SimCluster cluster = new SimCluster(11, 3, 4);
        CreateTopicResult created = createTopic(cluster, "moving", 1, 2);
        Supplier<PartitionRegistration> partition = () -> cluster.committedLog().image().topics()
                .partition(created.topicId(), 0);
        List<Integer> target = cluster.brokers().keySet().stream()
                .filter(b -> !partition.get().replicas().contains(b)).sorted().toList();
        Map<Integer, Optional<List<Integer>>> targets = Map.of(0, Optional.of(target));
        Map<String, Map<Integer, ApiError>> answer = onActive(cluster,
                c -> c.alterPartitionReassignments(Map.of("moving", targets), true)).get();
        assertEquals(ApiError.NONE, answer.get("moving").get(0));
        SimController starter = awaitActive(cluster);
        assertTrue(cluster.runUntil(() -> partition.get().isReassigning(), BOUND_MS), cluster.describe("not started"));
        assertTrue(partition.get().isReassigning(), "still moving when its controller crashes");
        cluster.crashController(starter.id);
        // The sim's leaders put random replicas in the ISR; the next controller completes the move from the records.
        assertTrue(cluster.runUntil(() -> !partition.get().isReassigning()
                && partition.get().replicas().equals(target), 120_000), cluster.describe("reassignment stuck: "
                + partition.get()));
        assertNotEquals(starter.id, awaitActive(cluster).id);
        cluster.restartController(starter.id);
    }
}
