package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.ConfigException;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeConfigsTest {
    private static final Path SAMPLES = Path.of("src/main/dist/config");

    private static Map<String, String> combined() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("process.roles", "broker,controller");
        values.put("node.id", "1");
        values.put("controller.quorum.voters", "1@localhost:9093,2@[::1]:9094,3@10.0.0.3:9095");
        values.put("listeners", "PLAINTEXT://localhost:9092,CONTROLLER://:9093");
        return values;
    }

    private static ParsedConfig parse(Map<String, String> values) {
        ParsedConfig config = NodeConfigs.definition().parse(values, ConfigSource.STATIC_BROKER_CONFIG);
        NodeConfigs.validate(config);
        return config;
    }

    private static String rejection(String key, String value) {
        Map<String, String> values = combined();
        if (value == null) {
            values.remove(key);
        } else {
            values.put(key, value);
        }
        return assertThrows(ConfigException.class, () -> parse(values), key + "=" + value).getMessage();
    }

    @Test
    void theSampleConfigsOfAllThreeRolesAreValid() {
        ParsedConfig server = NodeConfigs.load(SAMPLES.resolve("server.properties"));
        assertEquals(List.of("broker", "controller"), server.getList(NodeConfigs.PROCESS_ROLES));
        assertEquals(1, server.getInt(NodeConfigs.NODE_ID));
        assertEquals(List.of("1@localhost:9093"), server.getList(NodeConfigs.CONTROLLER_QUORUM_VOTERS));
        assertEquals(List.of("PLAINTEXT://localhost:9092", "CONTROLLER://localhost:9093"), server.getList(NodeConfigs.LISTENERS));
        assertEquals(List.of(Path.of("./data/kraft-logs"), Path.of("./data/metadata")), NodeConfigs.allDirectories(server));
        assertTrue(server.unknownKeys().isEmpty(), server.unknownKeys().toString());

        ParsedConfig broker = NodeConfigs.load(SAMPLES.resolve("broker.properties"));
        assertEquals(List.of("broker"), broker.getList(NodeConfigs.PROCESS_ROLES));
        assertTrue(broker.unknownKeys().isEmpty(), broker.unknownKeys().toString());
        ParsedConfig controller = NodeConfigs.load(SAMPLES.resolve("controller.properties"));
        assertEquals(List.of("controller"), controller.getList(NodeConfigs.PROCESS_ROLES));
        assertTrue(controller.unknownKeys().isEmpty(), controller.unknownKeys().toString());
    }

    @Test
    void knowsTheKeysOfAKafkaBrokerConfigThatThisNodeUses() {
        // Keys a Kafka user's server.properties typically carries; every one is read by some component here.
        Map<String, String> props = new HashMap<>(combined());
        props.putAll(Map.of("advertised.listeners", "PLAINTEXT://broker1.example.com:9092",
                "controller.listener.names", "CONTROLLER",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "group.initial.rebalance.delay.ms", "0",
                "offsets.topic.replication.factor", "1",
                "num.io.threads", "8",
                "replica.lag.time.max.ms", "30000",
                "auto.create.topics.enable", "false",
                "log.cleaner.dedupe.buffer.size", "134217728"));
        // Kafka's __transaction_state settings: accepted without a warning, though the state is in the metadata log.
        props.putAll(Map.of("transaction.state.log.replication.factor", "1", "transaction.state.log.min.isr", "1"));
        ParsedConfig config = parse(props);
        assertTrue(config.unknownKeys().isEmpty(), config.unknownKeys().toString());
    }

    @Test
    void acceptsIpv6AndWildcardAddresses() {
        ParsedConfig config = parse(combined());
        assertEquals(3, config.getList(NodeConfigs.CONTROLLER_QUORUM_VOTERS).size());
        assertEquals("PLAINTEXT://:9092", NodeConfigs.definition().key(NodeConfigs.LISTENERS).display(
                NodeConfigs.definition().key(NodeConfigs.LISTENERS).defaultValue()));
    }

    @Test
    void requiresIdentityRolesAndVoters() {
        assertEquals("Missing required configuration node.id: expected an int at least 0", rejection("node.id", null));
        assertTrue(rejection("process.roles", null).startsWith("Missing required configuration process.roles"));
        assertEquals("Missing required configuration: one of controller.quorum.voters (id@host:port,...) and"
                + " controller.quorum.bootstrap.servers (host:port,...) must be set",
                rejection("controller.quorum.voters", null));
    }

    @Test
    void bootstrapServersReplaceTheVotersButDoNotJoinThem() {
        assertEquals("set controller.quorum.voters or controller.quorum.bootstrap.servers, not both",
                rejection("controller.quorum.bootstrap.servers", "localhost:9093"));
        Map<String, String> values = combined();
        values.remove("controller.quorum.voters");
        values.put("controller.quorum.bootstrap.servers", "localhost:9093,[::1]:9094");
        parse(values); // a controller needs no voters entry of its own: its CONTROLLER listener is its address
        assertEquals("localhost:9093", NodeConfigs.controllerEndpoint(parse(values)).orElseThrow());
        values.put("controller.quorum.bootstrap.servers", "localhost");
        assertEquals("controller.quorum.bootstrap.servers entry 'localhost' is not host:port",
                assertThrows(ConfigException.class, () -> parse(values)).getMessage());
    }

    @Test
    void rejectsMalformedValues() {
        assertTrue(rejection("process.roles", "broker,zookeeper").startsWith("Invalid value broker,zookeeper for configuration process.roles"));
        assertTrue(rejection("process.roles", "broker,broker").contains("each role at most once"));
        assertTrue(rejection("controller.quorum.voters", "localhost:9093").contains("id@host:port"));
        assertTrue(rejection("controller.quorum.voters", "1@localhost:70000").contains("id@host:port"));
        assertTrue(rejection("controller.quorum.voters", "1@localhost:9093,1@localhost:9094").contains("1 repeats"));
        assertTrue(rejection("listeners", "localhost:9092").contains("NAME://host:port"));
        assertTrue(rejection("listeners", "PLAINTEXT://a:1,PLAINTEXT://b:2,CONTROLLER://c:3").contains("PLAINTEXT repeats"));
    }

    @Test
    void aControllerMustBeAVoterWithAControllerListener() {
        assertEquals("node.id 7 is not among the controller.quorum.voters [1, 2, 3], but process.roles includes controller:"
                + " add 7@host:port to the voters", rejection("node.id", "7"));
        assertTrue(rejection("listeners", "PLAINTEXT://:9092").startsWith("listeners [PLAINTEXT] has no CONTROLLER listener"));
    }

    @Test
    void aBrokerNeedsAListenerForClients() {
        assertTrue(rejection("listeners", "CONTROLLER://:9093").startsWith("listeners [CONTROLLER] has no listener for clients"));
        Map<String, String> broker = combined();
        broker.put("process.roles", "broker");
        broker.put("node.id", "9");
        broker.put("listeners", "PLAINTEXT://:9092");
        assertEquals(9, parse(broker).getInt(NodeConfigs.NODE_ID), "a broker need not be a voter");
    }

    @Test
    void onlyKafkasStandardAuthorizerIsAnAuthorizerClass() {
        Map<String, String> values = combined();
        values.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        values.put("super.users", "User:admin;User:CN=broker");
        values.put("allow.everyone.if.no.acl.found", "true");
        parse(values);
        String refused = rejection("authorizer.class.name", "kafka.security.authorizer.AclAuthorizer");
        assertTrue(refused.contains("authorizer.class.name") && refused.contains("StandardAuthorizer"), refused);
        assertFalse(refused.contains("\n"), refused);
    }

    @Test
    void aBrokerOnlyNodeIsNotAVoter() {
        Map<String, String> broker = combined();
        broker.put("process.roles", "broker");
        broker.put("listeners", "PLAINTEXT://:9092");
        ConfigException error = assertThrows(ConfigException.class, () -> parse(broker));
        assertEquals("node.id 1 is among the controller.quorum.voters [1, 2, 3], but process.roles is broker: a broker-only"
                + " node needs an id of its own (or add the controller role)", error.getMessage());
    }

    @Test
    void listenersNeedAProtocolThatIsServed() {
        assertTrue(rejection("listeners", "CLIENTS://:9092,CONTROLLER://:9093")
                .startsWith("Listener CLIENTS has no security protocol"));
        assertTrue(rejection("listeners", "SASL_PLAINTEXT://:9092,CONTROLLER://:9093")
                .contains("The inter-broker listener SASL_PLAINTEXT uses SASL SCRAM-SHA-256 but"
                        + " listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config (or sasl.jaas.config) is not set"));
        assertTrue(rejection("listeners", "PLAINTEXT://:9092,SSL://:9093,CONTROLLER://:9093")
                .contains("both use port 9093"));
        assertTrue(rejection("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:TLS")
                .startsWith("Unknown security protocol 'TLS'"));
        assertTrue(rejection("inter.broker.listener.name", "INTERNAL").startsWith("inter.broker.listener.name INTERNAL"));
    }

    @Test
    void anSslListenerNeedsKeyMaterialThatOpens() {
        assertEquals("Listener SSL is SSL but ssl.keystore.location (or listener.name.ssl.ssl.keystore.location) is not"
                + " set", rejection("listeners", "PLAINTEXT://:9092,SSL://:9094,CONTROLLER://:9093"));
        Map<String, String> ssl = combined();
        ssl.put("listeners", "SSL://:9094,CONTROLLER://:9093");
        ssl.put("listener.name.ssl.ssl.keystore.location", "/nonexistent/broker.p12");
        ConfigException error = assertThrows(ConfigException.class, () -> parse(ssl));
        assertEquals("Invalid ssl.keystore.location for listener SSL: no such file: /nonexistent/broker.p12",
                error.getMessage());
    }

    @Test
    void perListenerSslKeysAreKnown() {
        Map<String, String> values = combined();
        values.put("listener.name.internal.ssl.client.auth", "required");
        values.put("ssl.keystore.type", "PKCS12");
        values.put("listener.name.internal.max.connections", "10");
        // Only the ssl.* keys are read per listener so far: another one is reported, not silently ignored.
        assertEquals(java.util.Set.of("listener.name.internal.max.connections"), parse(values).unknownKeys());
    }
}
