package io.kraft.server.security;

import static io.kraft.broker.TestWaits.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import io.kraft.metadata.BootstrapMetadata;
import io.kraft.metadata.image.ScramFunctions;
import io.kraft.metadata.image.ScramMechanism;
import io.kraft.server.CombinedNode;
import io.kraft.server.TestFaultHandler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.DuplicateResourceException;
import org.apache.kafka.common.errors.ResourceNotFoundException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.UnacceptableCredentialException;
import org.apache.kafka.common.errors.UnsupportedSaslMechanismException;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One combined node with a SASL_PLAINTEXT and a SASL_SSL listener offering PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512, the
 * first SCRAM user written by format's bootstrap records, used by real Kafka clients.
 */
class SaslListenersTest {
    private static final String CLUSTER_ID = "U2FzbExpc3RlbmVyc1Rlcw";
    private static final long WAIT_MS = TestWaits.WAIT_MS;
    private static final String PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
    private static final String SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";

    @TempDir
    static Path dir;
    static TestCertificates certs;
    static CombinedNode node;
    static final TestFaultHandler FAULTS = new TestFaultHandler();

    @BeforeAll
    static void start() throws Exception {
        certs = TestCertificates.create(dir);
        // What `kraft-cli format --add-scram` leaves: the first admin's credentials, appended by the first controller.
        BootstrapMetadata.write(dir.resolve("metadata"), List.of(
                ScramFunctions.credentialForPassword("admin", ScramMechanism.SCRAM_SHA_256, "admin-secret", 4096)
                        .toRecord(),
                ScramFunctions.credentialForPassword("admin", ScramMechanism.SCRAM_SHA_512, "admin-secret", 4096)
                        .toRecord()));
        Map<String, String> props = new HashMap<>();
        props.put("controller.quorum.voters", "1@localhost:" + freePort());
        props.put("log.dirs", dir.resolve("logs").toString());
        props.put("listener.security.protocol.map", "SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL,"
                + "REAUTH:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT");
        // One listener with short sessions (KIP-368), for a client that does not re-authenticate.
        props.put("listener.name.reauth.connections.max.reauth.ms", "1000");
        props.put("inter.broker.listener.name", "SASL_PLAINTEXT");
        props.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        props.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512");
        // PLAIN's users: per listener on one, the node-wide entry on the other.
        props.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_MODULE
                + " required username=\"broker\" password=\"broker-secret\" user_broker=\"broker-secret\""
                + " user_alice=\"alice-secret\";");
        props.put("sasl.jaas.config", PLAIN_MODULE + " required user_alice=\"alice-secret\";");
        props.put("ssl.keystore.type", "PKCS12");
        props.put("ssl.keystore.location", certs.brokerKeyStore().toString());
        props.put("ssl.keystore.password", TestCertificates.PASSWORD);
        props.put("offsets.topic.replication.factor", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parseOwn(props, ConfigSource.STATIC_BROKER_CONFIG)));
        node = CombinedNode.start(1, CLUSTER_ID, dir.resolve("metadata"),
                "SASL_PLAINTEXT://localhost:0,SASL_SSL://localhost:0,REAUTH://localhost:0", props, topicConfigs, FAULTS);
        node.ready().get(WAIT_MS, TimeUnit.MILLISECONDS);
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
        FAULTS.assertNone();
    }

    static Map<String, Object> clientConfig(String listener, String mechanism, String user, String password) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + node.listenerPort(listener));
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, listener);
        config.put(SaslConfigs.SASL_MECHANISM, mechanism);
        config.put(SaslConfigs.SASL_JAAS_CONFIG, (mechanism.equals("PLAIN") ? PLAIN_MODULE : SCRAM_MODULE)
                + " required username=\"" + user + "\" password=\"" + password + "\";");
        if (listener.equals("SASL_SSL")) {
            config.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
            config.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certs.trustStore().toString());
            config.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, TestCertificates.PASSWORD);
        }
        config.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        config.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000");
        return config;
    }

    private static Admin admin(String listener, String mechanism, String user, String password) {
        return Admin.create(clientConfig(listener, mechanism, user, password));
    }

    private static Admin admin() {
        return admin("SASL_PLAINTEXT", "SCRAM-SHA-256", "admin", "admin-secret");
    }

    @ParameterizedTest
    @CsvSource({"SASL_PLAINTEXT, PLAIN, alice, alice-secret", "SASL_PLAINTEXT, SCRAM-SHA-256, admin, admin-secret",
        "SASL_SSL, SCRAM-SHA-512, admin, admin-secret", "SASL_SSL, PLAIN, alice, alice-secret"})
    void producesConsumesInAGroupAndAdministers(String listener, String mechanism, String user, String password)
            throws Exception {
        String topic = ("t-" + listener + "-" + mechanism).toLowerCase();
        Map<String, Object> config = clientConfig(listener, mechanism, user, password);
        try (Admin admin = Admin.create(config)) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
            assertTrue(admin.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS).contains(topic));
        }
        Map<String, Object> producerConfig = new HashMap<>(config);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i));
            }
            producer.flush();
        }
        Map<String, Object> consumerConfig = new HashMap<>(config);
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, "g-" + topic);
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(),
                new StringDeserializer())) {
            assertEquals(100, consume(consumer, topic, 100).size());
            consumer.commitSync();
        }
    }

    static List<String> consume(KafkaConsumer<String, String> consumer, String topic, int count) {
        consumer.subscribe(List.of(topic));
        List<String> values = new ArrayList<>();
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (values.size() < count && System.currentTimeMillis() < deadline) {
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                values.add(record.value());
            }
        }
        return values;
    }

    @Test
    void wrongPasswordIsASaslAuthenticationExceptionAndOtherConnectionsCarryOn() throws Exception {
        try (Admin good = admin(); Admin wrongScram = admin("SASL_PLAINTEXT", "SCRAM-SHA-256", "admin", "nope");
             Admin wrongPlain = admin("SASL_SSL", "PLAIN", "alice", "nope");
             Admin unknown = admin("SASL_SSL", "SCRAM-SHA-512", "mallory", "x")) {
            good.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS);
            for (Admin bad : List.of(wrongScram, wrongPlain, unknown)) {
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> bad.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS));
                assertInstanceOf(SaslAuthenticationException.class, e.getCause());
            }
            good.createTopics(List.of(new NewTopic("after-failures", 1, (short) 1))).all()
                    .get(WAIT_MS, TimeUnit.MILLISECONDS);
        }
    }

    @Test
    void aMechanismTheListenerDoesNotOfferIsRefusedWithTheEnabledOnes() {
        Map<String, Object> config = clientConfig("SASL_PLAINTEXT", "OAUTHBEARER", "admin", "admin-secret");
        config.put(SaslConfigs.SASL_JAAS_CONFIG,
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub=\"admin\";");
        try (Admin admin = Admin.create(config)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> admin.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS));
            assertInstanceOf(UnsupportedSaslMechanismException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("SCRAM-SHA-256"), e.getCause().getMessage());
        }
    }

    @Test
    void aScramUserCreatedThroughAdminLogsInAtOnceAndNotOnceDeleted() throws Exception {
        try (Admin admin = admin()) {
            admin.alterUserScramCredentials(List.of(
                    new UserScramCredentialUpsertion("carol", new ScramCredentialInfo(
                            org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256, 8192), "carol-secret"),
                    new UserScramCredentialUpsertion("carol", new ScramCredentialInfo(
                            org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_512, 4096), "carol-secret")))
                    .all().get(WAIT_MS, TimeUnit.MILLISECONDS);
            UserScramCredentialsDescription carol = admin.describeUserScramCredentials(List.of("carol")).all()
                    .get(WAIT_MS, TimeUnit.MILLISECONDS).get("carol");
            assertEquals(2, carol.credentialInfos().size());
            assertTrue(carol.credentialInfos().contains(new ScramCredentialInfo(
                    org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256, 8192)));
            // The answer comes once the credential committed; this broker's image follows at once.
            try (Admin asCarol = admin("SASL_SSL", "SCRAM-SHA-512", "carol", "carol-secret")) {
                TestWaits.awaitTrue(() -> {
                    try {
                        asCarol.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS);
                        return true;
                    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                        return false;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                }, "carol to log in");
            }
            admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion("carol",
                    org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_512))).all()
                    .get(WAIT_MS, TimeUnit.MILLISECONDS);
            try (Admin asCarol = admin("SASL_SSL", "SCRAM-SHA-512", "carol", "carol-secret")) {
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> asCarol.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS));
                assertInstanceOf(SaslAuthenticationException.class, e.getCause());
            }
            try (Admin asCarol = admin("SASL_PLAINTEXT", "SCRAM-SHA-256", "carol", "carol-secret")) {
                asCarol.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS);
            }
        }
    }

    @Test
    void alterationsAreCheckedAsKafkaChecksThem() throws Exception {
        try (Admin admin = admin()) {
            var few = admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("dave",
                    new ScramCredentialInfo(org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256, 1000),
                    "pw")));
            assertCause(UnacceptableCredentialException.class, few.all());
            var many = admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("dave",
                    new ScramCredentialInfo(org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256, 20000),
                    "pw")));
            assertCause(UnacceptableCredentialException.class, many.all());
            var missing = admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion("nobody",
                    org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256)));
            assertCause(ResourceNotFoundException.class, missing.all());
            var twice = admin.alterUserScramCredentials(List.of(
                    new UserScramCredentialUpsertion("erin", new ScramCredentialInfo(
                            org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256, 4096), "a"),
                    new UserScramCredentialDeletion("erin",
                            org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256),
                    new UserScramCredentialUpsertion("frank", new ScramCredentialInfo(
                            org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256, 4096), "f")));
            assertCause(DuplicateResourceException.class, twice.values().get("erin"));
            twice.values().get("frank").get(WAIT_MS, TimeUnit.MILLISECONDS);
            var unknown = admin.describeUserScramCredentials(List.of("nobody"));
            assertCause(ResourceNotFoundException.class, unknown.description("nobody"));
            assertTrue(admin.describeUserScramCredentials().users().get(WAIT_MS, TimeUnit.MILLISECONDS)
                    .containsAll(List.of("admin", "frank")));
        }
    }

    private static void assertCause(Class<? extends Throwable> expected,
                                    org.apache.kafka.common.KafkaFuture<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> future.get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(expected, e.getCause(), String.valueOf(e.getCause()));
    }

    @Test
    void aRequestBeforeAuthenticationClosesTheConnection() throws Exception {
        try (WireClient client = new WireClient(node.listenerPort("SASL_PLAINTEXT"))) {
            client.send(ApiKeys.METADATA, (short) 12, new MetadataRequestData().setTopics(null));
            assertTrue(client.closedByServer());
        }
    }

    @Test
    void aSessionPastItsLifetimeIsClosedAtItsNextRequest() throws Exception {
        try (WireClient client = new WireClient(node.listenerPort("REAUTH"))) {
            SaslHandshakeResponseData handshake = new SaslHandshakeResponseData(client.receive(ApiKeys.SASL_HANDSHAKE,
                    (short) 1, client.send(ApiKeys.SASL_HANDSHAKE, (short) 1,
                            new SaslHandshakeRequestData().setMechanism("PLAIN"))), (short) 1);
            assertEquals(0, handshake.errorCode());
            int id = client.send(ApiKeys.SASL_AUTHENTICATE, (short) 1, new SaslAuthenticateRequestData()
                    .setAuthBytes("\u0000alice\u0000alice-secret".getBytes(StandardCharsets.UTF_8)));
            SaslAuthenticateResponseData login = new SaslAuthenticateResponseData(
                    client.receive(ApiKeys.SASL_AUTHENTICATE, (short) 1, id), (short) 1);
            assertEquals(0, login.errorCode());
            assertEquals(1000, login.sessionLifetimeMs());
            id = client.send(ApiKeys.METADATA, (short) 12, new MetadataRequestData().setTopics(null));
            client.receive(ApiKeys.METADATA, (short) 12, id);
            // The client lets its session run out instead of re-authenticating.
            Thread.sleep(1_200);
            client.send(ApiKeys.METADATA, (short) 12, new MetadataRequestData().setTopics(null));
            assertTrue(client.closedByServer());
        }
    }

    @Test
    void aWrongPasswordIsAnsweredWithItsErrorAndThenTheConnectionCloses() throws Exception {
        try (WireClient client = new WireClient(node.listenerPort("SASL_PLAINTEXT"))) {
            client.receive(ApiKeys.SASL_HANDSHAKE, (short) 1, client.send(ApiKeys.SASL_HANDSHAKE, (short) 1,
                    new SaslHandshakeRequestData().setMechanism("PLAIN")));
            int id = client.send(ApiKeys.SASL_AUTHENTICATE, (short) 2, new SaslAuthenticateRequestData()
                    .setAuthBytes("\u0000alice\u0000wrong".getBytes(StandardCharsets.UTF_8)));
            SaslAuthenticateResponseData answer = new SaslAuthenticateResponseData(
                    client.receive(ApiKeys.SASL_AUTHENTICATE, (short) 2, id), (short) 2);
            assertEquals(Errors.SASL_AUTHENTICATION_FAILED.code(), answer.errorCode());
            assertEquals("Authentication failed: Invalid username or password", answer.errorMessage());
            assertTrue(client.closedByServer());
        }
    }
}
