package io.kraft.cli;

import io.kraft.cli.client.ClientFailures;
import io.kraft.cli.client.ClientProperties;
import io.kraft.cli.client.LineReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli produce --bootstrap-server HOST:PORT --topic T}: one record per line of standard input,
 * like Kafka's {@code kafka-console-producer.sh} ({@code --property parse.key=true --property key.separator=:}
 * takes the key from each line). Waits for every record to be acknowledged before it exits.
 */
@Command(name = "produce", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Sends each line of standard input as a record (like kafka-console-producer.sh).")
final class ProduceCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--bootstrap-server", required = true, paramLabel = "HOST:PORT",
            description = "The Kafka listener(s) to connect to, comma-separated.")
    private String bootstrapServer;

    @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "The topic to write to.")
    private String topic;

    @Option(names = "--property", paramLabel = "KEY=VALUE",
            description = "Line reading: parse.key (false), key.separator (a tab), null.marker; repeatable.")
    private List<String> properties;

    @Option(names = "--producer-property", paramLabel = "KEY=VALUE",
            description = "A Kafka producer setting, e.g. acks=1 or compression.type=lz4; repeatable.")
    private List<String> producerProperties;

    @Option(names = "--producer.config", paramLabel = "FILE", description = "Kafka producer properties.")
    private Path producerConfig;

    @Override
    public Integer call() {
        LineReader reader;
        Map<String, Object> config;
        try {
            reader = LineReader.of(ClientProperties.keyValues(properties, "--property"));
            config = ClientProperties.of(bootstrapServer, producerConfig, producerProperties);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        PrintWriter err = spec.commandLine().getErr();
        ClientProperties.quietClientLogging();
        AtomicLong failed = new AtomicLong();
        AtomicReference<Exception> firstFailure = new AtomicReference<>();
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config);
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                LineReader.KeyValue record = reader.read(line, sent + 1);
                producer.send(new ProducerRecord<>(topic, record.key(), record.value()), (metadata, exception) -> {
                    if (exception != null) {
                        failed.incrementAndGet();
                        firstFailure.compareAndSet(null, exception);
                    }
                });
                sent++;
            }
            producer.flush();
        } catch (IOException | RuntimeException e) {
            err.println("Error: " + ClientFailures.message(e));
            err.flush();
            return KraftCli.EXIT_FAILURE;
        }
        if (failed.get() > 0) {
            err.println("Error: " + failed.get() + " of " + sent + " records were not written: "
                    + ClientFailures.message(firstFailure.get()));
            err.flush();
            return KraftCli.EXIT_FAILURE;
        }
        return 0;
    }
}
