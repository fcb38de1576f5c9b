import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Committed transactions per second for bin/bench-vs-kafka, compiled by the script against Apache Kafka's
 * client jars: PRODUCERS transactional producers, each committing transactions of 6 records of 100 B (one per
 * partition of a 6-partition topic) for SECONDS seconds.
 * <pre>
 *   java -cp 'libs/*:classes' TxnBench BOOTSTRAP TOPIC PRODUCERS SECONDS
 * </pre>
 * Prints "transactions/s commit-p99-ms" on stdout.
 */
public final class TxnBench {
    private static final int RECORDS_PER_TRANSACTION = 6;

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        int producers = Integer.parseInt(args[2]);
        long seconds = Long.parseLong(args[3]);
        List<Worker> workers = new ArrayList<>();
        AtomicBoolean measuring = new AtomicBoolean(false);
        AtomicBoolean running = new AtomicBoolean(true);
        for (int i = 0; i < producers; i++) {
            workers.add(new Worker(bootstrap, topic, "bench-txn-" + System.nanoTime() + "-" + i, measuring, running));
        }
        workers.forEach(w -> w.thread.start());
        Thread.sleep(3_000); // warm-up: every producer initialised and committing
        measuring.set(true);
        long startNanos = System.nanoTime();
        Thread.sleep(seconds * 1_000);
        measuring.set(false);
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        running.set(false);
        long committed = 0;
        List<Long> latencies = new ArrayList<>();
        for (Worker w : workers) {
            w.thread.join();
            if (w.failure != null) {
                throw new IllegalStateException("a transactional producer failed", w.failure);
            }
            committed += w.committed;
            latencies.addAll(w.commitMicros);
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        double p99 = sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (sorted.length * 0.99))] / 1000.0;
        System.out.printf("%.0f %.1f%n", committed / elapsed, p99);
    }


    /** One transactional producer committing in a loop on its own thread. */
    private static final class Worker {
        final Thread thread;
        final List<Long> commitMicros = new ArrayList<>();
        long committed;
        volatile Exception failure;

        Worker(String bootstrap, String topic, String transactionalId, AtomicBoolean measuring, AtomicBoolean running)
                throws IOException {
            Properties props = BenchClients.clientProperties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
            byte[] value = new byte[100];
            Arrays.fill(value, (byte) 'x');
            thread = new Thread(() -> {
                try (KafkaProducer<byte[], byte[]> producer =
                             new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
                    producer.initTransactions();
                    while (running.get()) {
                        producer.beginTransaction();
                        for (int p = 0; p < RECORDS_PER_TRANSACTION; p++) {
                            producer.send(new ProducerRecord<>(topic, p, null, value));
                        }
                        long start = System.nanoTime();
                        producer.commitTransaction();
                        if (measuring.get()) {
                            committed++;
                            commitMicros.add((System.nanoTime() - start) / 1_000);
                        }
                    }
                } catch (Exception e) {
                    failure = e;
                }
            }, "txn-" + transactionalId);
        }
    }
}
