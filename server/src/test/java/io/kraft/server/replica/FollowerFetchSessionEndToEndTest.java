package io.kraft.server.replica;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.broker.fetch.follower.FollowerFetchStats;
import io.kraft.broker.replica.Partition;
import io.kraft.broker.replica.ReplicationConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Followers in incremental fetch sessions (KIP-227) on three in-process brokers: once caught up, a follower of many
 * partitions names almost none of them per request, and replication converges again after a leader restart (its
 * sessions are gone, the followers start new ones).
 */
class FollowerFetchSessionEndToEndTest {
    private static final String CLUSTER_ID = "Rm9sbG93ZXJTZXNzaW9uczE";
    private static final long WAIT_MS = 60_000;
    private static final int PARTITIONS = 60;
    private static final String TOPIC = "many";

    @TempDir
    Path dir;

    private InProcessCluster cluster;

    @AfterEach
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void caughtUpFollowersSendSmallRequestsAndConvergeAfterALeaderRestart() throws Exception {
        cluster = InProcessCluster.start(dir, CLUSTER_ID, List.of(2, 3, 4), Map.of(
                "controller.quorum.election.timeout.ms", "300", "controller.quorum.fetch.timeout.ms", "600",
                ReplicationConfig.REPLICA_FETCH_BACKOFF_MS, "100"), Map.of());
        Admin admin = cluster.admin();
        admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        KafkaProducer<String, String> producer = cluster.closeLater(new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap(), ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, "5"), new StringSerializer(), new StringSerializer()));
        produce(producer, 0, 3_000);
        awaitTrue(this::converged, "every replica of every partition at the same log end");

        // Each broker follows 40 partitions; idle and caught up, a request names about none of them.
        for (int id : cluster.brokerIds()) {
            awaitTrue(() -> idleRequestsAreSmall(stats(id)), "broker " + id + "'s idle requests to name few partitions");
        }

        cluster.restartBroker(2);
        produce(producer, 3_000, 6_000);
        awaitTrue(this::converged, "every replica at the same log end after the restart");
        awaitTrue(() -> fullIsrs(3), "the restarted broker back in every ISR");
        long total = cluster.broker(3).replicaManager().partitions().stream()
                .mapToLong(Partition::logEndOffset).sum();
        assertEquals(6_000, total, "every acknowledged record is in the logs");
        for (int id : cluster.brokerIds()) {
            awaitTrue(() -> idleRequestsAreSmall(stats(id)), "broker " + id + "'s requests small again");
        }
    }

    private FollowerFetchStats stats(int brokerId) {
        return cluster.broker(brokerId).replicaManager().fetchers().orElseThrow().stats();
    }

    /** Over one second, at least two requests and on average at most one partition named per request. */
    private static boolean idleRequestsAreSmall(FollowerFetchStats stats) {
        long requests = stats.requests();
        long named = stats.partitionsNamed();
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        long moreRequests = stats.requests() - requests;
        return moreRequests >= 2 && stats.partitionsNamed() - named <= moreRequests;
    }

    /** Whether every partition's ISR holds all three brokers, in {@code brokerId}'s metadata. */
    private boolean fullIsrs(int brokerId) {
        return cluster.broker(brokerId).replicaManager().partitions().stream()
                .allMatch(partition -> partition.registration().isr().size() == 3);
    }

    private boolean converged() {
        for (int p = 0; p < PARTITIONS; p++) {
            Set<Long> ends = new HashSet<>();
            for (int id : cluster.brokerIds()) {
                var partition = cluster.broker(id).replicaManager()
                        .partition(new io.kraft.storage.log.TopicPartition(TOPIC, p));
                if (partition.isEmpty()) {
                    return false;
                }
                ends.add(partition.get().logEndOffset());
            }
            if (ends.size() != 1) {
                return false;
            }
        }
        return true;
    }

    private static void produce(KafkaProducer<String, String> producer, int from, int to) throws Exception {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (int i = from; i < to; i++) {
            acks.add(producer.send(new ProducerRecord<>(TOPIC, "k" + i, "v" + i)));
        }
        for (Future<RecordMetadata> ack : acks) {
            ack.get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
    }
}
