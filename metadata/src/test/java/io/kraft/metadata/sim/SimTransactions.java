package io.kraft.metadata.sim;

import io.kraft.metadata.controller.TransactionMarkersWritten;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.image.TransactionMetadata;
import io.kraft.metadata.image.TransactionState;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Simulated transactional producers and partition leaders: on each tick one of a few transactional ids takes its next
 * step against the active controller, chosen from what the committed log shows of it: init (which fences an open
 * transaction), add partitions, commit or abort; and a decided transaction's markers are reported written, as its
 * partitions' leaders would. Short transaction timeouts make the controller abort some on its own. One id's producer
 * runs transaction protocol version 2 (KIP-890 part 2): its partitions are added as a leader adds them, and its
 * commits and aborts bump the epoch.
 */
final class SimTransactions {
    private static final List<String> IDS = List.of("tx-1", "tx-2", "tx-3");
    /** The id whose producer runs transaction protocol version 2. */
    private static final String VERSION_2_ID = "tx-3";
    static final int TIMEOUT_MS = 1_500;

    private final SimCluster cluster;
    private boolean running;
    private boolean inFlight;

    SimTransactions(SimCluster cluster) {
        this.cluster = cluster;
    }

    void start(long meanIntervalMs) {
        running = true;
        cluster.scheduler().after(cluster.scheduler().delayMs(0, meanIntervalMs), "txn tick",
                () -> tick(meanIntervalMs));
    }

    void stop() {
        running = false;
    }

    private void tick(long meanIntervalMs) {
        if (!running) {
            return;
        }
        if (!inFlight) {
            step();
        }
        cluster.scheduler().after(cluster.scheduler().delayMs(meanIntervalMs / 2, meanIntervalMs * 3 / 2),
                "txn tick", () -> tick(meanIntervalMs));
    }

    private void step() {
        Random random = cluster.scheduler().random();
        MetadataImage image = cluster.committedLog().image();
        String id = IDS.get(random.nextInt(IDS.size()));
        TransactionMetadata txn = image.transactions().transaction(id);
        if (txn == null || random.nextInt(8) == 0) {
            send("init " + id, c -> c.initTransactionalProducer(id, TIMEOUT_MS, -1L, (short) -1));
            return;
        }
        long pid = txn.producerId();
        short epoch = txn.producerEpoch();
        boolean v2 = id.equals(VERSION_2_ID);
        if (txn.state().isPrepare()) {
            boolean commit = txn.state() == TransactionState.PREPARE_COMMIT;
            send("markers " + id, c -> c.transactionMarkersWritten(new TransactionMarkersWritten(100, 1, id, pid,
                    epoch, commit, List.copyOf(txn.partitions()))));
            return;
        }
        if (txn.state() == TransactionState.ONGOING && random.nextBoolean()) {
            boolean commit = random.nextBoolean();
            send((commit ? "commit " : "abort ") + id, c -> c.endTransaction(id, pid, epoch, commit, v2));
            return;
        }
        List<TopicImage> topics = List.copyOf(image.topics().topicsByName().values());
        if (topics.isEmpty()) {
            return;
        }
        TopicImage topic = topics.get(random.nextInt(topics.size()));
        int partition = random.nextInt(Math.max(1, topic.partitions().size()));
        send("add " + id, c -> c.addPartitionsToTransaction(id, pid, epoch,
                Map.of(topic.name(), List.of(partition)), v2 ? 2 : 1));
    }

    private <T> void send(String what, java.util.function.Function<io.kraft.metadata.controller.QuorumController,
            java.util.concurrent.CompletableFuture<T>> request) {
        inFlight = true;
        cluster.call("txn " + what, request, answer -> null, (answer, error) -> inFlight = false);
    }
}
