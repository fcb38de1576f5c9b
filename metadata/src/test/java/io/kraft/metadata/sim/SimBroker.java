package io.kraft.metadata.sim;

import io.kraft.metadata.controller.AlterPartitionRequest;
import io.kraft.metadata.controller.BrokerHeartbeatReply;
import io.kraft.metadata.controller.BrokerHeartbeatRequest;
import io.kraft.metadata.controller.BrokerRegistrationRequest;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A simulated broker as its controller sees it: a state machine that registers an incarnation, heartbeats, leads
 * partitions (shrinking and expanding their ISRs with AlterPartition) and asks for producer ids; it can be paused
 * (its process stopped, then continued), stopped (with or without its connection closing), restarted as a new
 * incarnation, or asked to shut down in a controlled way.
 */
final class SimBroker {
    static final long SESSION_TIMEOUT_MS = 1_500;
    static final long HEARTBEAT_INTERVAL_MS = 250;

    enum State { DOWN, REGISTERING, RUNNING, PAUSED }

    final int id;
    private final SimCluster cluster;
    private State state = State.DOWN;
    /** How the previous incarnation ended, as the next registration says (KIP-966); unknown before the first. */
    private long previousBrokerEpoch = BrokerRegistrationRequest.PREVIOUS_EPOCH_UNKNOWN;
    /** The state a paused broker returns to. */
    private State beforePause = State.DOWN;
    private UUID incarnation;
    private long brokerEpoch = -1;
    private boolean shuttingDown;
    private boolean requestInFlight;
    private int incarnations;
    /** Starts a new tick chain each start, so a restarted broker does not run two. */
    private long generation;

    SimBroker(int id, SimCluster cluster) {
        this.id = id;
        this.cluster = cluster;
    }

    State state() {
        return state;
    }

    long brokerEpoch() {
        return brokerEpoch;
    }

    boolean isShuttingDown() {
        return shuttingDown;
    }

    /** Starts a new incarnation: it registers, then heartbeats. */
    void start() {
        incarnation = new UUID(id, ++incarnations);
        brokerEpoch = -1;
        shuttingDown = false;
        requestInFlight = false;
        state = State.REGISTERING;
        long current = ++generation;
        cluster.scheduler().after(cluster.scheduler().delayMs(0, HEARTBEAT_INTERVAL_MS), "broker " + id + " tick",
                () -> tick(current));
    }

    /** The process stops; {@code connectionCloses} tells whether its controller sees the connection close. */
    void stop(boolean connectionCloses) {
        if (state == State.DOWN) {
            return;
        }
        // A crash unless a completed controlled shutdown says otherwise (KIP-966).
        previousBrokerEpoch = BrokerRegistrationRequest.NO_CLEAN_SHUTDOWN;
        state = State.DOWN;
        generation++;
        if (connectionCloses) {
            cluster.connectionClosed(id);
        }
    }

    /** SIGSTOP: nothing is sent until {@link #resume}. */
    void pause() {
        if (state == State.REGISTERING || state == State.RUNNING) {
            beforePause = state;
            state = State.PAUSED;
        }
    }

    void resume() {
        if (state == State.PAUSED) {
            state = beforePause;
        }
    }

    /** Asks for a controlled shutdown: heartbeats say so until the controller lets it stop. */
    void shutDown() {
        if (state == State.RUNNING) {
            shuttingDown = true;
        }
    }

    private void tick(long tickGeneration) {
        if (tickGeneration != generation) {
            return;
        }
        if (!requestInFlight && state == State.REGISTERING) {
            register();
        } else if (!requestInFlight && state == State.RUNNING) {
            int choice = cluster.scheduler().random().nextInt(12);
            if (choice == 0) {
                alterPartition();
            } else if (choice == 1) {
                allocateProducerIds();
            } else {
                heartbeat();
            }
        }
        cluster.scheduler().after(HEARTBEAT_INTERVAL_MS + cluster.scheduler().delayMs(0, 30), "broker " + id + " tick",
                () -> tick(tickGeneration));
    }

    private void register() {
        requestInFlight = true;
        BrokerRegistrationRequest request = new BrokerRegistrationRequest(SimController.SETTINGS.clusterId(), id,
                incarnation, List.of(new Endpoint("PLAINTEXT", "broker-" + id, 9092, "PLAINTEXT")),
                Optional.of("rack-" + id % 2), List.of(), previousBrokerEpoch);
        long sentGeneration = generation;
        cluster.call("broker " + id + " register", c -> c.registerBroker(request),
                epoch -> new Acknowledgement.BrokerRegistered(id, epoch), (epoch, error) -> {
                    if (sentGeneration != generation) {
                        return;
                    }
                    requestInFlight = false;
                    if (error == null && state == State.REGISTERING) {
                        brokerEpoch = epoch;
                        state = State.RUNNING;
                    }
                });
    }

    private void heartbeat() {
        requestInFlight = true;
        BrokerHeartbeatRequest request = new BrokerHeartbeatRequest(id, brokerEpoch,
                cluster.metadataOffsetSeenByBrokers(), false, shuttingDown);
        long sentGeneration = generation;
        cluster.call("broker " + id + " heartbeat", c -> c.heartbeat(request), reply -> null,
                (BrokerHeartbeatReply reply, Throwable error) -> {
                    if (sentGeneration != generation) {
                        return;
                    }
                    requestInFlight = false;
                    if (error instanceof ControllerException e && (e.error() == Errors.STALE_BROKER_EPOCH
                            || e.error() == Errors.BROKER_ID_NOT_REGISTERED)) {
                        // Another incarnation took the id, or the registration never committed: start over.
                        if (state == State.RUNNING) {
                            state = State.REGISTERING;
                        }
                    } else if (reply != null && reply.shouldShutDown() && shuttingDown) {
                        stop(true);
                        previousBrokerEpoch = brokerEpoch;
                    }
                });
    }

    /** As the leader of a partition, changes its ISR to a random subset of the replicas that includes itself. */
    private void alterPartition() {
        List<TopicImage> topics = new ArrayList<>(cluster.committedLog().image().topics().topicsById().values());
        topics.sort(Comparator.comparing(TopicImage::id));
        List<TopicIdPartition> led = new ArrayList<>();
        for (TopicImage topic : topics) {
            topic.partitions().keySet().stream().sorted().forEach(p -> {
                if (topic.partition(p).leader() == id) {
                    led.add(new TopicIdPartition(topic.id(), p));
                }
            });
        }
        if (led.isEmpty()) {
            heartbeat();
            return;
        }
        TopicIdPartition chosen = led.get(cluster.scheduler().random().nextInt(led.size()));
        UUID topicId = chosen.topicId();
        int partitionId = chosen.partition();
        PartitionRegistration partition = cluster.committedLog().image().topics().partition(topicId, partitionId);
        List<Integer> isr = new ArrayList<>();
        for (int replica : partition.replicas()) {
            if (replica == id || cluster.scheduler().random().nextBoolean()) {
                isr.add(replica);
            }
        }
        AlterPartitionRequest request = new AlterPartitionRequest(id, brokerEpoch, topicId, partitionId,
                partition.leaderEpoch(), isr, partition.partitionEpoch());
        requestInFlight = true;
        long sentGeneration = generation;
        cluster.call("broker " + id + " alterPartition " + partitionId, c -> c.alterPartition(request),
                answer -> new Acknowledgement.PartitionAltered(topicId, partitionId, answer),
                (answer, error) -> requestInFlight &= sentGeneration != generation);
    }

    private void allocateProducerIds() {
        requestInFlight = true;
        long epoch = brokerEpoch;
        long sentGeneration = generation;
        cluster.call("broker " + id + " allocateProducerIds", c -> c.allocateProducerIds(id, epoch),
                Acknowledgement.ProducerIdsAllocated::new,
                (block, error) -> requestInFlight &= sentGeneration != generation);
    }
}
