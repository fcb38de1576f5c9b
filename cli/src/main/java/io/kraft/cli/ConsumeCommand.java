package io.kraft.cli;

import io.kraft.cli.client.ClientFailures;
import io.kraft.cli.client.ClientProperties;
import io.kraft.cli.client.RecordFormatter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli consume --bootstrap-server HOST:PORT --topic T}: prints a topic's records, like Kafka's
 * {@code kafka-console-consumer.sh}. With {@code --group} it joins that consumer group; without, it reads every
 * partition directly (assign), from the end or with {@code --from-beginning} from the start. It stops after
 * {@code --max-messages}, after {@code --timeout-ms} without a record, or at Ctrl-C, and then reports the count.
 */
@Command(name = "consume", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Prints the records of a topic (like kafka-console-consumer.sh).")
final class ConsumeCommand implements Callable<Integer> {
    private static final Duration POLL = Duration.ofMillis(200);

    @Spec
    private CommandSpec spec;

    /** Records printed so far (read after a Ctrl-C too). */
    private long consumed;

    @Option(names = "--bootstrap-server", required = true, paramLabel = "HOST:PORT",
            description = "The Kafka listener(s) to connect to, comma-separated.")
    private String bootstrapServer;

    @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "The topic to read.")
    private String topic;

    @Option(names = "--group", paramLabel = "GROUP",
            description = "Consume as a member of this consumer group (offsets are committed).")
    private String group;

    @Option(names = "--from-beginning",
            description = "Start at the earliest record (for a group: when it has no committed offset).")
    private boolean fromBeginning;

    @Option(names = "--max-messages", paramLabel = "N", description = "Stop after N records.")
    private Long maxMessages;

    @Option(names = "--timeout-ms", paramLabel = "MS", description = "Stop when no record arrives for this long.")
    private Long timeoutMs;

    @Option(names = "--property", paramLabel = "KEY=VALUE",
            description = "Output: print.key, print.timestamp, print.partition, print.offset, print.headers, "
                    + "print.value, key.separator, line.separator, null.literal; repeatable.")
    private List<String> properties;

    @Option(names = "--consumer-property", paramLabel = "KEY=VALUE",
            description = "A Kafka consumer setting; repeatable.")
    private List<String> consumerProperties;

    @Option(names = "--consumer.config", paramLabel = "FILE", description = "Kafka consumer properties.")
    private Path consumerConfig;

    @Override
    public Integer call() {
        if (maxMessages != null && maxMessages < 1) {
            throw new ParameterException(spec.commandLine(), "--max-messages must be at least 1");
        }
        if (timeoutMs != null && timeoutMs < 0) {
            throw new ParameterException(spec.commandLine(), "--timeout-ms must not be negative");
        }
        RecordFormatter formatter;
        Map<String, Object> config;
        try {
            formatter = RecordFormatter.of(ClientProperties.keyValues(properties, "--property"));
            config = ClientProperties.of(bootstrapServer, consumerConfig, consumerProperties);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromBeginning ? "earliest" : "latest");
        // Offsets are committed for exactly the records printed, so --max-messages leaves the rest for later.
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        if (group != null) {
            config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        } else {
            config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ClientProperties.quietClientLogging();
        int exitCode = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            Thread stopper = new Thread(consumer::wakeup, "kraft-consume-stop");
            Runtime.getRuntime().addShutdownHook(stopper);
            try {
                start(consumer);
                consume(consumer, formatter, out);
            } catch (WakeupException stopped) {
                // Ctrl-C: report what was read
            } finally {
                removeHook(stopper);
            }
        } catch (RuntimeException e) {
            out.flush();
            err.println("Error: " + ClientFailures.message(e));
            exitCode = KraftCli.EXIT_FAILURE;
        }
        out.flush();
        err.println("Processed a total of " + consumed + " messages");
        err.flush();
        return exitCode;
    }

    private void start(KafkaConsumer<byte[], byte[]> consumer) {
        if (group != null) {
            consumer.subscribe(List.of(topic));
            return;
        }
        List<PartitionInfo> partitions = consumer.partitionsFor(topic);
        if (partitions == null || partitions.isEmpty()) {
            throw new IllegalArgumentException("Topic '" + topic + "' does not exist");
        }
        List<TopicPartition> assigned = partitions.stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(assigned);
        if (fromBeginning) {
            consumer.seekToBeginning(assigned);
        } else {
            consumer.seekToEnd(assigned);
        }
    }

    /** Prints records until --max-messages, --timeout-ms or a wakeup, counting them in {@link #consumed}. */
    private void consume(KafkaConsumer<byte[], byte[]> consumer, RecordFormatter formatter, PrintWriter out) {
        long lastRecordNanos = System.nanoTime();
        Map<TopicPartition, OffsetAndMetadata> printed = new HashMap<>();
        while (maxMessages == null || consumed < maxMessages) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
            if (records.isEmpty()) {
                if (timeoutMs != null && System.nanoTime() - lastRecordNanos >= timeoutMs * 1_000_000L) {
                    return;
                }
                continue;
            }
            lastRecordNanos = System.nanoTime();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                out.print(formatter.format(record));
                printed.put(new TopicPartition(record.topic(), record.partition()),
                        new OffsetAndMetadata(record.offset() + 1));
                if (++consumed == (maxMessages == null ? -1 : maxMessages)) {
                    break;
                }
            }
            out.flush();
            if (group != null) {
                consumer.commitSync(printed);
            }
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is already stopping: the hook has run
        }
    }
}
