package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.broker.api.data.ApiVersionsHandler;
import io.kraft.broker.api.data.MetadataHandler;
import io.kraft.metadata.image.MetadataImage;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The real Java Admin client against the wire server, serving a metadata image replayed from records. */
class AdminClientEndToEndTest {
    private static final long TIMEOUT_SECONDS = 20;

    private final AtomicReference<MetadataImage> image = new AtomicReference<>(MetadataImage.EMPTY);
    private KafkaServer server;
    private Admin admin;

    @BeforeEach
    void start() throws Exception {
        server = new KafkaServer(SocketServerConfig.defaults("PLAINTEXT", "127.0.0.1", 0),
                RequestHandlerRegistry.of(new ApiVersionsHandler(), new MetadataHandler(image::get, TestImages.CLUSTER_ID)));
        server.start();
        image.set(TestImages.oneBrokerWithOrders(server.boundPort()));
        admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + server.boundPort(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000"));
    }

    @AfterEach
    void stop() {
        admin.close(java.time.Duration.ofSeconds(5));
        server.close();
    }

    @Test
    void describesTheClusterFromTheImage() throws Exception {
        DescribeClusterResult cluster = admin.describeCluster();
        assertEquals(TestImages.CLUSTER_ID, cluster.clusterId().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        Collection<Node> nodes = cluster.nodes().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertEquals(List.of(new Node(1, "127.0.0.1", server.boundPort())), List.copyOf(nodes));
        assertEquals(1, cluster.controller().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).id());
    }

    @Test
    void listsAndDescribesTopics() throws Exception {
        Set<String> names = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertEquals(Set.of(TestImages.ORDERS), names);

        TopicDescription orders = admin.describeTopics(List.of(TestImages.ORDERS)).allTopicNames()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(TestImages.ORDERS);
        assertEquals(TestImages.ORDERS_ID.toString(), toJavaUuid(orders).toString());
        assertFalse(orders.isInternal());
        assertEquals(3, orders.partitions().size());
        TopicPartitionInfo zero = orders.partitions().get(0);
        assertEquals(0, zero.partition());
        assertEquals(1, zero.leader().id());
        assertEquals(List.of(1, 3), zero.replicas().stream().map(Node::id).toList());
        assertEquals(List.of(1), zero.isr().stream().map(Node::id).toList());
    }

    @Test
    void reportsAnUnknownTopic() {
        ExecutionException failure = assertThrows(ExecutionException.class, () ->
                admin.describeTopics(List.of("missing")).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(UnknownTopicOrPartitionException.class, failure.getCause());
    }

    private static java.util.UUID toJavaUuid(TopicDescription description) {
        return new java.util.UUID(description.topicId().getMostSignificantBits(),
                description.topicId().getLeastSignificantBits());
    }
}
