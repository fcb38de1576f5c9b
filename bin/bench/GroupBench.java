import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Consumer-group figures for bin/bench-vs-kafka, compiled by the script against Apache Kafka's
 * client jars, so the same code measures both brokers:
 * <pre>
 *   java -cp 'libs/*:classes' GroupBench rebalance BOOTSTRAP TOPIC MEMBERS [classic|consumer]
 *       # ms until MEMBERS+1 share the topic's partitions again, with the classic or the KIP-848 protocol
 *   java -cp 'libs/*:classes' GroupBench throughput BOOTSTRAP TOPIC MEMBERS RECORDS   # records/s of a group
 * </pre>
 * Prints one number on stdout.
 */
public final class GroupBench {
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String bootstrap = args[1];
        String topic = args[2];
        int members = Integer.parseInt(args[3]);
        if (mode.equals("rebalance")) {
            String protocol = args.length > 4 ? args[4] : "classic";
            System.out.println(rebalanceMs(bootstrap, topic, members, protocol));
        } else {
            System.out.println(throughput(bootstrap, topic, members, Long.parseLong(args[4])));
        }
    }

    /**
     * Starts {@code members} consumers, waits until the group is stable, adds one, and times the rebalance. The
     * group is stable when every member owns at least one partition and together they own each exactly once: with
     * the KIP-848 protocol a member that only loses partitions is not told of a new assignment.
     */
    static long rebalanceMs(String bootstrap, String topic, int members, String protocol) throws Exception {
        String group = "rebalance-" + System.nanoTime();
        List<Member> all = new ArrayList<>();
        try {
            for (int i = 0; i < members; i++) {
                all.add(new Member(bootstrap, group, topic, null, protocol));
            }
            awaitStable(all, 120_000);
            long startNanos = System.nanoTime();
            all.add(new Member(bootstrap, group, topic, null, protocol));
            awaitStable(all, 120_000);
            return (System.nanoTime() - startNanos) / 1_000_000;
        } finally {
            for (Member member : all) {
                member.stop();
            }
        }
    }

    /** Consumes {@code records} with {@code members} consumers in one group; answers records per second. */
    static long throughput(String bootstrap, String topic, int members, long records) throws Exception {
        String group = "throughput-" + System.nanoTime();
        AtomicLong consumed = new AtomicLong();
        long startNanos = System.nanoTime();
        List<Member> all = new ArrayList<>();
        try {
            for (int i = 0; i < members; i++) {
                all.add(new Member(bootstrap, group, topic, consumed, "classic"));
            }
            long deadline = System.currentTimeMillis() + 300_000;
            while (consumed.get() < records) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("consumed only " + consumed.get() + " of " + records);
                }
                Thread.sleep(5);
            }
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            return Math.round(consumed.get() / seconds);
        } finally {
            for (Member member : all) {
                member.stop();
            }
        }
    }

    /** Waits until every member owns a partition and together they own each of the topic's exactly once. */
    private static void awaitStable(List<Member> members, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            Set<TopicPartition> union = new HashSet<>();
            int total = 0;
            boolean everyOwns = true;
            int partitions = 0;
            for (Member member : members) {
                everyOwns &= !member.assignment.isEmpty();
                union.addAll(member.assignment);
                total += member.assignment.size();
                partitions = Math.max(partitions, member.partitions);
            }
            if (everyOwns && total == union.size() && total == partitions) {
                return;
            }
            Thread.sleep(2);
        }
        throw new IllegalStateException("the group did not become stable within " + timeoutMs + " ms");
    }


    /** One consumer polling on its own thread. */
    private static final class Member implements ConsumerRebalanceListener {
        final Set<TopicPartition> assignment = ConcurrentHashMap.newKeySet();
        volatile int partitions;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Member(String bootstrap, String group, String topic, AtomicLong consumed, String protocol) throws IOException {
            Properties props = BenchClients.clientProperties();
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
            thread = new Thread(() -> {
                try (KafkaConsumer<byte[], byte[]> consumer =
                             new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                    partitions = consumer.partitionsFor(topic).size();
                    consumer.subscribe(List.of(topic), this);
                    while (running.get()) {
                        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                        if (consumed != null) {
                            consumed.addAndGet(records.count());
                        }
                    }
                }
            });
            thread.start();
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            assignment.removeAll(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            assignment.addAll(partitions);
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join(30_000);
        }
    }
}
