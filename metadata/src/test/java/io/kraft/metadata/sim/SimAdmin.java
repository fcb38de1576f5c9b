package io.kraft.metadata.sim;

import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.metadata.controller.CreateTopicResult;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.TopicImage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * A simulated admin client: one request at a time, creating and deleting topics from a small set of names, adding
 * partitions and altering topic and broker configs, retrying elsewhere when a controller is not active. Every
 * answered write becomes an {@link Acknowledgement} for the invariants.
 */
final class SimAdmin {
    private static final List<String> TOPICS = List.of("orders", "payments", "clicks", "logs.app", "logs_app");

    private final SimCluster cluster;
    private boolean running;
    private boolean requestInFlight;
    private long created;

    SimAdmin(SimCluster cluster) {
        this.cluster = cluster;
    }

    /** Issues random requests every {@code meanIntervalMs} or so until {@link #stop}. */
    void start(long meanIntervalMs) {
        running = true;
        cluster.scheduler().after(cluster.scheduler().delayMs(0, meanIntervalMs), "admin tick",
                () -> tick(meanIntervalMs));
    }

    void stop() {
        running = false;
    }

    /** Topics this admin had acknowledged as created. */
    long created() {
        return created;
    }

    private void tick(long meanIntervalMs) {
        if (!running) {
            return;
        }
        if (!requestInFlight) {
            randomRequest();
        }
        cluster.scheduler().after(cluster.scheduler().delayMs(meanIntervalMs / 2, meanIntervalMs * 3 / 2),
                "admin tick", () -> tick(meanIntervalMs));
    }

    private void randomRequest() {
        String topic = TOPICS.get(cluster.scheduler().random().nextInt(TOPICS.size()));
        switch (cluster.scheduler().random().nextInt(6)) {
            case 0, 1 -> createTopic(topic, 1 + cluster.scheduler().random().nextInt(3),
                    1 + cluster.scheduler().random().nextInt(3), (result, error) -> { });
            case 2 -> {
                requestInFlight = true;
                cluster.call("admin deleteTopic " + topic, c -> c.deleteTopic(topic),
                        Acknowledgement.TopicDeleted::new, this::done);
            }
            case 3 -> {
                TopicImage current = cluster.committedLog().image().topics().topic(topic);
                int total = (current == null ? 1 : current.partitions().size())
                        + 1 + cluster.scheduler().random().nextInt(2);
                requestInFlight = true;
                cluster.call("admin createPartitions " + topic + " " + total,
                        c -> c.createPartitions(topic, total, List.of()),
                        answer -> new Acknowledgement.PartitionsCreated(topic, total), this::done);
            }
            case 4 -> {
                // min.insync.replicas moves the partitions' eligible leader replicas (KIP-966) in and out of use.
                String key = cluster.scheduler().random().nextBoolean() ? "retention.ms" : "min.insync.replicas";
                String value = key.equals("retention.ms") ? "6000" + cluster.scheduler().random().nextInt(3)
                        : String.valueOf(1 + cluster.scheduler().random().nextInt(3));
                Map<String, Optional<String>> changes = Map.of(key,
                        cluster.scheduler().random().nextBoolean() ? Optional.of(value) : Optional.empty());
                ConfigResource resource = ConfigResource.topic(topic);
                requestInFlight = true;
                Acknowledgement.ConfigsAltered altered = Acknowledgement.ConfigsAltered.sent(cluster.committedLog(),
                        resource, changes);
                cluster.call("admin alterConfigs " + topic, c -> c.incrementalAlterConfigs(resource, changes),
                        answer -> altered, this::done);
            }
            default -> {
                ConfigResource resource = ConfigResource.broker("");
                Map<String, Optional<String>> changes = Map.of("log.retention.ms",
                        Optional.of(String.valueOf(60_000 + cluster.scheduler().random().nextInt(3))));
                requestInFlight = true;
                Acknowledgement.ConfigsAltered altered = Acknowledgement.ConfigsAltered.sent(cluster.committedLog(),
                        resource, changes);
                cluster.call("admin alterConfigs cluster", c -> c.incrementalAlterConfigs(resource, changes),
                        answer -> altered, this::done);
            }
        }
    }

    /** Creates a topic; {@code onAnswer} hears the result (null after a failure). */
    void createTopic(String name, int partitions, int replicationFactor,
                     BiConsumer<CreateTopicResult, Throwable> onAnswer) {
        requestInFlight = true;
        CreateTopicRequest request = CreateTopicRequest.of(name, partitions, replicationFactor);
        cluster.call("admin createTopic " + name, c -> c.createTopic(request),
                result -> new Acknowledgement.TopicCreated(name, result.topicId(), result.numPartitions()),
                (result, error) -> {
                    done(result, error);
                    if (error == null) {
                        created++;
                    }
                    onAnswer.accept(result, error);
                });
    }

    private void done(Object answer, Throwable error) {
        requestInFlight = false;
    }
}
