package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node's log levels through the BROKER_LOGGER config resource, with Kafka's Admin client and with
 * {@code kraft-cli configs --entity-type broker-loggers}: read, changed at run time in the process's Log4j 2, reset,
 * and bad changes refused with Kafka's errors.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrokerLoggersTest {
    private static final String REQUEST_LOGGER = "kafka.request.logger";

    private ClientNode node;
    private Admin admin;
    private final ConfigResource loggers = new ConfigResource(ConfigResource.Type.BROKER_LOGGER, "1");

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        node = new ClientNode(dir);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap()));
    }

    @AfterAll
    void stop() {
        if (admin != null) {
            admin.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void levelsAreReadChangedAndResetAtRunTime() throws Exception {
        Config before = describe();
        assertEquals("WARN", before.get("root").value(), "the tests' root level");
        assertEquals(ConfigEntry.ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG, before.get("root").source());
        assertEquals("WARN", before.get(REQUEST_LOGGER).value(), "inherited from the root");

        alter(new AlterConfigOp(new ConfigEntry(REQUEST_LOGGER, "debug"), AlterConfigOp.OpType.SET));
        assertEquals("DEBUG", describe().get(REQUEST_LOGGER).value());
        assertEquals(Level.DEBUG, LogManager.getLogger(REQUEST_LOGGER).getLevel(), "the process's logger itself");

        alter(new AlterConfigOp(new ConfigEntry(REQUEST_LOGGER, ""), AlterConfigOp.OpType.DELETE));
        assertEquals("WARN", describe().get(REQUEST_LOGGER).value(), "back to its parent's level");
        assertEquals(Level.WARN, LogManager.getLogger(REQUEST_LOGGER).getLevel());

        // A package sets every logger below it.
        alter(new AlterConfigOp(new ConfigEntry("io.kraft.broker", "ERROR"), AlterConfigOp.OpType.SET));
        assertEquals(Level.ERROR, LogManager.getLogger("io.kraft.broker.replica.ReplicaManager").getLevel());
        alter(new AlterConfigOp(new ConfigEntry("io.kraft.broker", ""), AlterConfigOp.OpType.DELETE));
        assertEquals(Level.WARN, LogManager.getLogger("io.kraft.broker.replica.ReplicaManager").getLevel());
    }

    @Test
    void badChangesAreRefusedAndChangeNothing() throws Exception {
        assertRefused(InvalidConfigurationException.class, "valid levels are",
                new AlterConfigOp(new ConfigEntry(REQUEST_LOGGER, "LOUD"), AlterConfigOp.OpType.SET));
        assertRefused(InvalidConfigurationException.class, "root logger cannot be removed",
                new AlterConfigOp(new ConfigEntry("root", ""), AlterConfigOp.OpType.DELETE));
        assertRefused(InvalidConfigurationException.class, "does not exist",
                new AlterConfigOp(new ConfigEntry("no.such.logger", "DEBUG"), AlterConfigOp.OpType.SET));
        assertRefused(InvalidRequestException.class, "only SET and DELETE",
                new AlterConfigOp(new ConfigEntry(REQUEST_LOGGER, "DEBUG"), AlterConfigOp.OpType.APPEND));
        // One bad operation refuses the whole resource: the good one before it is not applied either.
        assertRefused(InvalidConfigurationException.class, "valid levels are",
                new AlterConfigOp(new ConfigEntry(REQUEST_LOGGER, "TRACE"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("root", "LOUD"), AlterConfigOp.OpType.SET));
        assertEquals("WARN", describe().get(REQUEST_LOGGER).value());
    }

    @Test
    void kraftCliConfigsShowsAndChangesLevels() {
        CliRun altered = CliRun.of("configs", "--bootstrap-server", node.bootstrap(), "--entity-type", "broker-loggers",
                "--entity-name", "1", "--alter", "--add-config", "io.kraft.metadata=INFO");
        assertEquals(0, altered.exitCode(), altered.err());
        assertEquals("Completed updating config for broker-logger 1.\n", altered.out());
        CliRun described = CliRun.of("configs", "--bootstrap-server", node.bootstrap(), "--entity-type",
                "broker-loggers", "--entity-name", "1", "--describe");
        assertEquals(0, described.exitCode(), described.err());
        assertTrue(described.out().startsWith("Dynamic configs for broker-logger 1 are:\n"), described.out());
        assertTrue(described.out().contains("  io.kraft.metadata=INFO sensitive=false synonyms={}\n"), described.out());
        assertTrue(described.out().contains("  root=WARN sensitive=false synonyms={}\n"), described.out());
        CliRun reset = CliRun.of("configs", "--bootstrap-server", node.bootstrap(), "--entity-type", "broker-loggers",
                "--entity-name", "1", "--alter", "--delete-config", "io.kraft.metadata");
        assertEquals(0, reset.exitCode(), reset.err());
        CliRun notAnId = CliRun.of("configs", "--bootstrap-server", node.bootstrap(), "--entity-type",
                "broker-loggers", "--entity-name", "all", "--describe");
        assertEquals(KraftCli.EXIT_USAGE, notAnId.exitCode());
        assertTrue(notAnId.err().contains("--entity-name of broker-loggers must be a broker id"), notAnId.err());
    }

    private Config describe() throws Exception {
        return admin.describeConfigs(List.of(loggers)).all().get().get(loggers);
    }

    private void alter(AlterConfigOp... ops) throws Exception {
        admin.incrementalAlterConfigs(Map.of(loggers, (Collection<AlterConfigOp>) List.of(ops))).all().get();
    }

    private void assertRefused(Class<? extends Exception> type, String message, AlterConfigOp... ops) {
        ExecutionException refused = assertThrows(ExecutionException.class, () -> alter(ops));
        assertInstanceOf(type, refused.getCause());
        assertTrue(refused.getCause().getMessage().contains(message), refused.getCause().getMessage());
    }
}
