package io.kraft.server.security;

import static io.kraft.broker.TestWaits.freePort;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.TestWaits;
import io.kraft.broker.WireClient;
import io.kraft.broker.network.TestCertificates;
import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.server.CombinedNode;
import io.kraft.server.TestFaultHandler;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ConsumerGroupHeartbeatRequest;
import org.apache.kafka.common.requests.ConsumerGroupHeartbeatResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACLs with real Kafka clients: one combined node with Kafka's StandardAuthorizer class name and a mutual-TLS
 * listener, where each client certificate is a principal ({@code User:CN=admin} is a super user, alice and bob are
 * not). The Admin client's ACL calls, Kafka's authorization exceptions, prefixed ACLs and a restart.
 */
class AuthorizationTest {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg";
    private static final long WAIT_MS = TestWaits.WAIT_MS;
    private static final TestFaultHandler FAULTS = new TestFaultHandler();

    @TempDir
    static Path dir;
    static TestCertificates certs;
    static Map<String, String> props;
    static int port;
    static CombinedNode node;
    static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        certs = TestCertificates.create(dir, List.of("admin", "alice", "bob", "dana"));
        port = freePort();
        props = new HashMap<>();
        props.put("controller.quorum.voters", "1@localhost:" + freePort());
        props.put("log.dirs", dir.resolve("logs").toString());
        props.put("listener.security.protocol.map", "MTLS:SSL,CONTROLLER:PLAINTEXT");
        props.putAll(certs.brokerSslSettings());
        props.put("ssl.client.auth", "required");
        props.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        props.put("super.users", "User:CN=admin");
        props.put("offsets.topic.replication.factor", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        startNode();
    }

    private static void startNode() throws Exception {
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parseOwn(props, ConfigSource.STATIC_BROKER_CONFIG)));
        node = CombinedNode.start(1, CLUSTER_ID, dir.resolve("metadata"), "MTLS://127.0.0.1:" + port, props,
                topicConfigs, FAULTS);
        node.ready().get(WAIT_MS, TimeUnit.MILLISECONDS);
        admin = Admin.create(config("admin"));
    }

    private static void stopNode() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        if (node != null) {
            node.close();
        }
    }

    @AfterAll
    static void stop() {
        stopNode();
        FAULTS.assertNone();
    }

    private static Map<String, Object> config(String principal) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port);
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        config.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        config.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certs.trustStore().toString());
        config.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, TestCertificates.PASSWORD);
        config.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12");
        config.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, certs.clientKeyStore(principal).toString());
        config.put(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, TestCertificates.PASSWORD);
        config.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        config.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000");
        return config;
    }

    private static KafkaProducer<byte[], byte[]> producer(String principal, boolean idempotent) {
        Map<String, Object> config = config(principal);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, Boolean.toString(idempotent));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String principal, String group) {
        Map<String, Object> config = config(principal);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static void createTopics(String... names) throws Exception {
        admin.createTopics(java.util.Arrays.stream(names).map(name -> new NewTopic(name, 1, (short) 1)).toList())
                .all().get(WAIT_MS, TimeUnit.MILLISECONDS);
    }

    private static AclBinding acl(ResourceType type, String name, PatternType pattern, String user,
                                  AclOperation operation, AclPermissionType permission) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry("User:CN=" + user, "*", operation, permission));
    }

    /**
     * Creates ACLs and waits until the broker's authorizer has them: the answer comes once the controller has
     * committed them (as in Kafka), but the broker takes them in through its metadata publishers a little later.
     */
    private static void createAcls(AclBinding... acls) throws Exception {
        admin.createAcls(List.of(acls)).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitBrokerCaughtUp();
    }

    private static void deleteAcls(AclBindingFilter filter) throws Exception {
        admin.deleteAcls(List.of(filter)).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitBrokerCaughtUp();
    }

    private static void awaitBrokerCaughtUp() {
        long committed = node.metadataImage().offset();
        await().atMost(Duration.ofMillis(WAIT_MS)).until(() -> node.publishedImage().offset() >= committed);
    }

    private static Set<AclBinding> describe(AclBindingFilter filter) throws Exception {
        return new HashSet<>(admin.describeAcls(filter).values().get(WAIT_MS, TimeUnit.MILLISECONDS));
    }

    private static Throwable cause(ExecutionException e) {
        return e.getCause();
    }

    private static AclBindingFilter principalFilter(String user) {
        return new AclBindingFilter(ResourcePatternFilter.ANY, new AccessControlEntryFilter("User:CN=" + user, null,
                AclOperation.ANY, AclPermissionType.ANY));
    }

    @Test
    void aclsRoundTripThroughTheAdminClient() throws Exception {
        AclBinding literal = acl(ResourceType.TOPIC, "rt-orders", PatternType.LITERAL, "carol", AclOperation.READ,
                AclPermissionType.ALLOW);
        AclBinding prefixed = acl(ResourceType.TOPIC, "rt-", PatternType.PREFIXED, "carol", AclOperation.WRITE,
                AclPermissionType.ALLOW);
        AclBinding group = acl(ResourceType.GROUP, "rt-group", PatternType.LITERAL, "carol", AclOperation.READ,
                AclPermissionType.DENY);
        createAcls(literal, prefixed, group);
        createAcls(literal); // present already: a success, not a second ACL
        assertEquals(Set.of(literal, prefixed, group), describe(principalFilter("carol")));
        AclBindingFilter matching = new AclBindingFilter(new ResourcePatternFilter(ResourceType.TOPIC, "rt-orders",
                PatternType.MATCH), AccessControlEntryFilter.ANY);
        assertEquals(Set.of(literal, prefixed), describe(matching));

        Collection<AclBinding> deleted = admin.deleteAcls(List.of(matching)).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertEquals(Set.of(literal, prefixed), new HashSet<>(deleted));
        assertEquals(Set.of(group), describe(principalFilter("carol")));
        deleteAcls(principalFilter("carol"));
        assertEquals(Set.of(), describe(principalFilter("carol")));

        ExecutionException invalid = assertThrows(ExecutionException.class, () -> createAcls(acl(ResourceType.CLUSTER,
                "not-the-cluster", PatternType.LITERAL, "carol", AclOperation.ALTER, AclPermissionType.ALLOW)));
        assertInstanceOf(InvalidRequestException.class, cause(invalid));
    }

    @Test
    void aPrincipalWithoutAclsGetsKafkasAuthorizationExceptions() throws Exception {
        createTopics("bob-topic", "hidden-1");
        try (KafkaProducer<byte[], byte[]> producer = producer("bob", false)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> producer.send(
                    new ProducerRecord<>("bob-topic", new byte[] {1})).get(WAIT_MS, TimeUnit.MILLISECONDS));
            assertInstanceOf(TopicAuthorizationException.class, cause(e));
        }
        // With the topic readable, the group is what bob lacks.
        createAcls(acl(ResourceType.TOPIC, "bob-topic", PatternType.LITERAL, "bob", AclOperation.READ,
                AclPermissionType.ALLOW));
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("bob", "bob-group")) {
            consumer.subscribe(List.of("bob-topic"));
            assertThrows(GroupAuthorizationException.class, () -> {
                long deadline = System.currentTimeMillis() + WAIT_MS;
                while (System.currentTimeMillis() < deadline) {
                    consumer.poll(Duration.ofMillis(200));
                }
            });
        }
        try (Admin bob = Admin.create(config("bob"))) {
            ExecutionException describeAcls = assertThrows(ExecutionException.class,
                    () -> bob.describeAcls(AclBindingFilter.ANY).values().get(WAIT_MS, TimeUnit.MILLISECONDS));
            assertInstanceOf(ClusterAuthorizationException.class, cause(describeAcls));
            ExecutionException create = assertThrows(ExecutionException.class, () -> bob.createTopics(
                    List.of(new NewTopic("bobs-own", 1, (short) 1))).all().get(WAIT_MS, TimeUnit.MILLISECONDS));
            assertInstanceOf(TopicAuthorizationException.class, cause(create));
            assertFalse(bob.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS).contains("hidden-1"),
                    "a topic bob may not describe is left out of the list");
            assertTrue(bob.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS).contains("bob-topic"));
            ExecutionException logDirs = assertThrows(ExecutionException.class, () -> bob.describeLogDirs(List.of(1))
                    .allDescriptions().get(WAIT_MS, TimeUnit.MILLISECONDS));
            assertInstanceOf(ClusterAuthorizationException.class, cause(logDirs));
        }
        deleteAcls(principalFilter("bob"));
    }

    @Test
    void aPrefixedAclGrantsExactlyItsPrefixAndConsumerAclsLetAPrincipalConsume() throws Exception {
        createTopics("pay-2", "payroll");
        createAcls(acl(ResourceType.TOPIC, "pay-", PatternType.PREFIXED, "alice", AclOperation.WRITE,
                AclPermissionType.ALLOW));
        try (KafkaProducer<byte[], byte[]> producer = producer("alice", true)) {
            producer.send(new ProducerRecord<>("pay-2", new byte[] {1})).get(WAIT_MS, TimeUnit.MILLISECONDS);
            ExecutionException e = assertThrows(ExecutionException.class, () -> producer.send(
                    new ProducerRecord<>("payroll", new byte[] {1})).get(WAIT_MS, TimeUnit.MILLISECONDS));
            assertInstanceOf(TopicAuthorizationException.class, cause(e));
        }
        createAcls(acl(ResourceType.TOPIC, "pay-", PatternType.PREFIXED, "alice", AclOperation.READ,
                        AclPermissionType.ALLOW),
                acl(ResourceType.GROUP, "alice-", PatternType.PREFIXED, "alice", AclOperation.READ,
                        AclPermissionType.ALLOW));
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("alice", "alice-group")) {
            consumer.subscribe(List.of("pay-2"));
            int seen = 0;
            long deadline = System.currentTimeMillis() + WAIT_MS;
            while (seen == 0 && System.currentTimeMillis() < deadline) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                seen += records.count();
            }
            assertEquals(1, seen);
            consumer.commitSync();
        }
    }

    @Test
    void authorizedOperationsAreThePrincipalsOwn() throws Exception {
        createTopics("ops-topic");
        createAcls(acl(ResourceType.TOPIC, "ops-topic", PatternType.LITERAL, "alice", AclOperation.READ,
                        AclPermissionType.ALLOW),
                acl(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL, "alice", AclOperation.DESCRIBE,
                        AclPermissionType.ALLOW));
        try (Admin alice = Admin.create(config("alice"))) {
            Set<AclOperation> cluster = alice.describeCluster(new org.apache.kafka.clients.admin.DescribeClusterOptions()
                    .includeAuthorizedOperations(true)).authorizedOperations().get(WAIT_MS, TimeUnit.MILLISECONDS);
            assertEquals(Set.of(AclOperation.DESCRIBE), cluster);
            Set<AclOperation> topic = alice.describeTopics(List.of("ops-topic"),
                    new org.apache.kafka.clients.admin.DescribeTopicsOptions().includeAuthorizedOperations(true))
                    .allTopicNames().get(WAIT_MS, TimeUnit.MILLISECONDS).get("ops-topic").authorizedOperations();
            assertEquals(Set.of(AclOperation.READ, AclOperation.DESCRIBE), topic);
        }
        Set<AclOperation> superUser = admin.describeCluster(new org.apache.kafka.clients.admin.DescribeClusterOptions()
                .includeAuthorizedOperations(true)).authorizedOperations().get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertTrue(superUser.contains(AclOperation.ALTER) && superUser.contains(AclOperation.CLUSTER_ACTION),
                superUser.toString());
        deleteAcls(principalFilter("alice"));
    }

    @Test
    void aclsSurviveARestart() throws Exception {
        createTopics("durable-1");
        AclBinding write = acl(ResourceType.TOPIC, "durable-", PatternType.PREFIXED, "bob", AclOperation.WRITE,
                AclPermissionType.ALLOW);
        createAcls(write);
        stopNode();
        startNode();
        assertTrue(describe(principalFilter("bob")).contains(write));
        try (KafkaProducer<byte[], byte[]> producer = producer("bob", true)) {
            producer.send(new ProducerRecord<>("durable-1", new byte[] {1})).get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
        deleteAcls(principalFilter("bob"));
    }

    /**
     * The coordinator's own check, sent raw: a Kafka consumer asks Metadata for its topics first, which refuses it
     * before any heartbeat would.
     */
    @Test
    void aConsumerProtocolMemberWithoutDescribeOnItsTopicIsRefusedByTheHeartbeat() throws Exception {
        createTopics("dana-topic");
        createAcls(acl(ResourceType.GROUP, "dana-group", PatternType.LITERAL, "dana", AclOperation.READ,
                AclPermissionType.ALLOW));
        ConsumerGroupHeartbeatRequestData join = new ConsumerGroupHeartbeatRequestData().setGroupId("dana-group")
                .setMemberId(Uuid.randomUuid().toString()).setMemberEpoch(0).setRebalanceTimeoutMs(30_000)
                .setSubscribedTopicNames(List.of("dana-topic")).setTopicPartitions(List.of());
        try (WireClient dana = new WireClient(tlsSocket("dana"))) {
            ConsumerGroupHeartbeatResponse refused = dana.send(
                    new ConsumerGroupHeartbeatRequest.Builder(join).build((short) 0));
            assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), refused.data().errorCode());
            assertEquals("Topic authorization failed for topics [dana-topic]", refused.data().errorMessage());

            createAcls(acl(ResourceType.TOPIC, "dana-topic", PatternType.LITERAL, "dana", AclOperation.DESCRIBE,
                    AclPermissionType.ALLOW));
            ConsumerGroupHeartbeatResponse allowed = dana.send(
                    new ConsumerGroupHeartbeatRequest.Builder(join).build((short) 0));
            assertTrue(allowed.data().errorCode() != Errors.TOPIC_AUTHORIZATION_FAILED.code(),
                    "with DESCRIBE the heartbeat passes the check: " + allowed.data());
        } finally {
            deleteAcls(principalFilter("dana"));
        }
    }

    /** A TLS connection to the listener presenting {@code principal}'s certificate. */
    private static Socket tlsSocket(String principal) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certs.trustStore())) {
            trust.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(certs.clientKeyStore(principal))) {
            keys.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, TestCertificates.PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
        socket.startHandshake();
        return socket;
    }
}
