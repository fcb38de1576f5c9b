package io.kraft.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The logging configuration the distribution ships ({@code config/log4j2.properties}): a node's lines reach
 * server.log under kraft.logs.dir, the controller's also controller.log, replica role changes only
 * state-change.log, and the request log only kafka-request.log, and only at DEBUG.
 */
class ShippedLogConfigTest {
    private static final Path SHIPPED = Path.of("src/main/dist/config/log4j2.properties");

    @TempDir
    Path logs;

    @Test
    void eachLoggerReachesItsFiles() throws Exception {
        String previous = System.getProperty("kraft.logs.dir");
        System.setProperty("kraft.logs.dir", logs.toString());
        LoggerContext context = new LoggerContext("shipped-config-test", null, SHIPPED.toUri());
        try {
            context.start();
            context.getLogger("io.kraft.broker.lifecycle.BrokerLifecycle").info("Broker 1 is unfenced");
            context.getLogger("io.kraft.metadata.controller.QuorumController").info("Controller 1 is active");
            context.getLogger("state.change.logger").info("Broker 1 leads orders-0 in epoch 3");
            context.getLogger("kafka.request.logger").debug("Completed request Produce v11");
            context.getLogger("kafka.request.logger").warn("a request log warning");
            context.getLogger("io.kraft.broker.replica.ReplicaManager").debug("below the default level");
        } finally {
            context.stop();
            if (previous == null) {
                System.clearProperty("kraft.logs.dir");
            } else {
                System.setProperty("kraft.logs.dir", previous);
            }
        }
        String server = Files.readString(logs.resolve("server.log"));
        assertTrue(server.matches("(?s)\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}] INFO Broker 1 is unfenced "
                + "\\(io\\.kraft\\.broker\\.lifecycle\\.BrokerLifecycle\\)\n.*"), "Kafka's layout: " + server);
        assertTrue(server.contains("Controller 1 is active"), server);
        assertFalse(server.contains("leads orders-0"), "state changes have a file of their own");
        assertFalse(server.contains("request"), "so has the request log");
        assertFalse(server.contains("below the default level"), server);

        String controller = Files.readString(logs.resolve("controller.log"));
        assertTrue(controller.contains("Controller 1 is active"), controller);
        assertFalse(controller.contains("unfenced"), controller);

        assertTrue(Files.readString(logs.resolve("state-change.log")).contains("Broker 1 leads orders-0 in epoch 3"));
        String requests = Files.readString(logs.resolve("kafka-request.log"));
        assertEquals(1, requests.lines().count(), "WARN and up unless raised at run time: " + requests);
        assertTrue(requests.contains("a request log warning"), requests);
    }
}
