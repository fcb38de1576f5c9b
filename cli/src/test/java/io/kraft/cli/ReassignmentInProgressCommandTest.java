package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.server.BrokerNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kraft-cli reassign-partitions} on a reassignment that cannot finish (its new replica's broker is down): the
 * plan is listed as in progress with the bytes copied so far, refused a second time without --additional, and
 * cancelled.
 */
class ReassignmentInProgressCommandTest {
    private static final String NL = System.lineSeparator();

    @Test
    void anUnfinishedReassignmentIsReportedWithItsProgressAndCancelled(@TempDir Path dir) throws Exception {
        try (ClientNode node = new ClientNode(dir.resolve("node-1"))) {
            BrokerNode second = node.startBroker(2, dir.resolve("node-2"));
            second.close(); // registered, now fenced: it cannot catch up
            String[] bootstrap = {"--bootstrap-server", node.bootstrap()};
            assertEquals(0, CliRun.of(concat(new String[] {"topics"}, bootstrap, "--create", "--topic", "moving"))
                    .exitCode());
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrap(), ProducerConfig.ACKS_CONFIG, "all"),
                    new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>("moving", "v" + i));
                }
                producer.flush();
            }
            Path plan = Files.writeString(dir.resolve("plan.json"), "{\"version\":1,\"partitions\":[{\"topic\":"
                    + "\"moving\",\"partition\":0,\"replicas\":[1,2],\"log_dirs\":[\"any\",\"any\"]}]}");
            String[] execute = concat(new String[] {"reassign-partitions"}, bootstrap, "--execute",
                    "--reassignment-json-file", plan.toString());
            CliRun started = CliRun.of(execute);
            assertEquals(0, started.exitCode(), started.err());
            assertTrue(started.out().endsWith("Successfully started partition reassignment for moving-0" + NL),
                    started.out());

            CliRun again = CliRun.of(execute);
            assertEquals(KraftCli.EXIT_FAILURE, again.exitCode());
            assertTrue(again.err().contains("Use --additional"), again.err());

            CliRun verified = CliRun.of(concat(new String[] {"reassign-partitions"}, bootstrap, "--verify",
                    "--reassignment-json-file", plan.toString()));
            assertEquals(0, verified.exitCode(), verified.err());
            List<String> lines = verified.out().lines().toList();
            assertEquals("Reassignment of partition moving-0 is still in progress (adding [2], removing []).",
                    lines.get(1));
            assertTrue(lines.get(2).matches("0 of 1 partitions done; 0 of [1-9]\\d* bytes copied to the new replicas\\."),
                    lines.get(2));

            CliRun cancelled = CliRun.of(concat(new String[] {"reassign-partitions"}, bootstrap, "--cancel",
                    "--reassignment-json-file", plan.toString()));
            assertEquals(0, cancelled.exitCode(), cancelled.err());
            assertEquals("Successfully cancelled partition reassignment for: moving-0" + NL, cancelled.out());
        }
    }

    private static String[] concat(String[] command, String[] bootstrap, String... args) {
        String[] all = new String[command.length + bootstrap.length + args.length];
        System.arraycopy(command, 0, all, 0, command.length);
        System.arraycopy(bootstrap, 0, all, command.length, bootstrap.length);
        System.arraycopy(args, 0, all, command.length + bootstrap.length, args.length);
        return all;
    }
}
