package io.kraft.broker.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.StandaloneBroker;
import io.kraft.broker.WireClient;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.AclPermissionType;
import io.kraft.metadata.authorizer.AuthorizerConfig;
import io.kraft.metadata.authorizer.PatternType;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks a broker with an authorizer makes on the wire, against ACL records the test publishes (the plaintext client
 * is {@code User:ANONYMOUS}). A Fetch that sets a replica id moves the leader's view of that follower, and so the high
 * watermark: only a principal with ClusterAction on the cluster may send one; anyone else is answered
 * TOPIC_AUTHORIZATION_FAILED (as Kafka answers) and the high watermark stays where it was.
 */
class AuthorizationWireTest {
    private static final int FOLLOWER = 2;
    private static final String ANONYMOUS = KafkaPrincipal.ANONYMOUS.toString();

    @TempDir
    Path logDir;

    private StandaloneBroker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private void allow(ResourceType type, String name, AclOperation operation) {
        broker.publish(List.of(MetadataRecords.of(new StandardAcl(type, name, PatternType.LITERAL, ANONYMOUS, "*",
                operation, AclPermissionType.ALLOW).toRecord(UUID.randomUUID()))));
    }

    private Errors replicaFetch(WireClient client, UUID topicId, long offset) throws Exception {
        Map<org.apache.kafka.common.TopicPartition, FetchRequest.PartitionData> partitions = Map.of(
                new org.apache.kafka.common.TopicPartition("t", 0), new FetchRequest.PartitionData(
                        new Uuid(topicId.getMostSignificantBits(), topicId.getLeastSignificantBits()), offset, 0,
                        1 << 20, Optional.of(0), Optional.empty()));
        FetchResponse response = client.send(FetchRequest.Builder.forReplica((short) 17, FOLLOWER, 1, 0, 1,
                partitions).build((short) 17));
        return Errors.forCode(response.data().responses().get(0).partitions().get(0).errorCode());
    }

    @Test
    void wholeRequestGatesAnswerTheApisOwnErrorResponse() throws Exception {
        broker = new StandaloneBroker(logDir, Map.of(AuthorizerConfig.AUTHORIZER_CLASS_NAME,
                AuthorizerConfig.STANDARD_AUTHORIZER));
        broker.createTopic("t", 2, Map.of());
        try (io.kraft.broker.TxnWire wire = new io.kraft.broker.TxnWire(broker.port())) {
            assertEquals(List.of(Errors.CLUSTER_AUTHORIZATION_FAILED, Errors.CLUSTER_AUTHORIZATION_FAILED),
                    wire.writeMarkers(7, (short) 0, 0, true, "t", 0, 1),
                    "WriteTxnMarkers needs ClusterAction on the cluster");
        }
    }

    @Test
    void allowEveryoneIfNoAclFoundOpensOnlyTopicsNoAclNames() throws Exception {
        broker = new StandaloneBroker(logDir, Map.of(AuthorizerConfig.AUTHORIZER_CLASS_NAME,
                AuthorizerConfig.STANDARD_AUTHORIZER, AuthorizerConfig.ALLOW_EVERYONE_IF_NO_ACL_FOUND, "true"));
        broker.createTopic("open", 1, Map.of());
        broker.createTopic("guarded", 1, Map.of());
        broker.publish(List.of(MetadataRecords.of(new StandardAcl(ResourceType.TOPIC, "guarded", PatternType.LITERAL,
                "User:someone-else", "*", AclOperation.WRITE, AclPermissionType.ALLOW).toRecord(UUID.randomUUID()))));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "1",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000"), new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>("open", new byte[] {1})).get();
            java.util.concurrent.ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    java.util.concurrent.ExecutionException.class,
                    () -> producer.send(new ProducerRecord<>("guarded", new byte[] {1})).get());
            org.junit.jupiter.api.Assertions.assertInstanceOf(
                    org.apache.kafka.common.errors.TopicAuthorizationException.class, refused.getCause());
        }
    }

    private long highWatermark() {
        return broker.replicaManager().partition(new TopicPartition("t", 0)).orElseThrow().highWatermark();
    }

    @Test
    void aReplicaFetchWithoutClusterActionIsRefusedAndDoesNotMoveTheHighWatermark() throws Exception {
        broker = new StandaloneBroker(logDir, Map.of(AuthorizerConfig.AUTHORIZER_CLASS_NAME,
                AuthorizerConfig.STANDARD_AUTHORIZER));
        broker.registerBroker(FOLLOWER, 1);
        UUID topicId = broker.createTopic("t", UUID.randomUUID(), 1, Map.of(), List.of(1, FOLLOWER),
                List.of(1, FOLLOWER));
        allow(ResourceType.TOPIC, "t", AclOperation.WRITE);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "1"),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>("t", new byte[] {(byte) i})).get();
            }
        }
        assertEquals(0, highWatermark(), "the follower has fetched nothing yet");
        try (WireClient client = new WireClient(broker.port())) {
            assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED, replicaFetch(client, topicId, 3));
            assertEquals(0, highWatermark(), "a refused replica fetch must not count as the follower's position");

            allow(ResourceType.CLUSTER, StandardAcl.CLUSTER_NAME, AclOperation.CLUSTER_ACTION);
            assertEquals(Errors.NONE, replicaFetch(client, topicId, 3));
            assertTrue(highWatermark() == 3, "with ClusterAction the follower's fetch moves the high watermark");
        }
    }
}
