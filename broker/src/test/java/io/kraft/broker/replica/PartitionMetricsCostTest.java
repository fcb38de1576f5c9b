package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.TopicPartition;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What per-partition metrics cost a broker hosting 10,000 partitions (time and heap to register them in Prometheus
 * and JMX, and one scrape), printed as a figure; and that dropping the partitions leaves no metric behind.
 */
class PartitionMetricsCostTest {
    private static final int PARTITIONS = 10_000;

    @TempDir
    Path dir;

    @Test
    void prometheusAloneCosts() throws Exception {
        try (Log log = Log.open(dir.resolve("shared-0"), LogConfig.defaults());
             KafkaMetrics metrics = KafkaMetrics.withoutJmx()) {
            List<Partition> partitions = partitions(log);
            PartitionMetrics partitionMetrics = new PartitionMetrics(metrics, () -> partitions, 1);
            long heapBefore = usedHeap();
            long start = System.nanoTime();
            partitionMetrics.reconcile();
            long registerNanos = System.nanoTime() - start;
            System.out.printf("PartitionMetrics cost for %d partitions, Prometheus only: register %.1f us and ~%d "
                            + "bytes of heap per partition%n", PARTITIONS, registerNanos / 1e3 / PARTITIONS,
                    (usedHeap() - heapBefore) / PARTITIONS);
            assertEquals(PARTITIONS, partitionMetrics.registeredPartitions());
        }
    }

    private static List<Partition> partitions(Log log) {
        List<Partition> partitions = new ArrayList<>();
        for (int i = 0; i < PARTITIONS; i++) {
            partitions.add(new Partition(new TopicPartition("cost-" + i / 100, i % 100), UUID.randomUUID(), 1, log, 0L));
        }
        return partitions;
    }

    @Test
    void tenThousandPartitionsRegisterAndLeaveCleanly() throws Exception {
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        try (Log log = Log.open(dir.resolve("shared-0"), LogConfig.defaults());
             KafkaMetrics metrics = KafkaMetrics.forNode()) {
            // The gauges only read the log when asked: one log behind every partition measures the metrics alone.
            List<Partition> partitions = partitions(log);
            AtomicReference<List<Partition>> hosted = new AtomicReference<>(partitions);
            PartitionMetrics partitionMetrics = new PartitionMetrics(metrics, hosted::get, 1);

            long heapBefore = usedHeap();
            long start = System.nanoTime();
            partitionMetrics.reconcile();
            long registerNanos = System.nanoTime() - start;
            long heapAfter = usedHeap();
            start = System.nanoTime();
            partitionMetrics.reconcile();
            long unchangedNanos = System.nanoTime() - start;
            ByteArrayOutputStream scrape = new ByteArrayOutputStream();
            start = System.nanoTime();
            metrics.writePrometheus(scrape);
            long scrapeNanos = System.nanoTime() - start;

            assertEquals(PARTITIONS, partitionMetrics.registeredPartitions());
            assertEquals(PARTITIONS, jmx.queryNames(new ObjectName("kafka.log:type=Log,name=Size,*"), null).size());
            System.out.printf("PartitionMetrics cost for %d partitions (7 gauges each, Prometheus + JMX): register "
                            + "%.1f us and ~%d bytes of heap per partition; an unchanged reconcile %.1f ms; a scrape "
                            + "%.0f ms, %d bytes%n", PARTITIONS, registerNanos / 1e3 / PARTITIONS,
                    (heapAfter - heapBefore) / PARTITIONS, unchangedNanos / 1e6, scrapeNanos / 1e6, scrape.size());
            assertTrue(registerNanos / PARTITIONS < 2_000_000, "registering costs " + registerNanos / PARTITIONS
                    + " ns per partition");

            hosted.set(List.of());
            partitionMetrics.reconcile();
            assertEquals(0, partitionMetrics.registeredPartitions());
            assertEquals(0, jmx.queryNames(new ObjectName("kafka.log:type=Log,*"), null).size());
            assertEquals(0, jmx.queryNames(new ObjectName("kafka.cluster:type=Partition,*"), null).size());
            scrape.reset();
            metrics.writePrometheus(scrape);
            assertTrue(!scrape.toString().contains("topic=\"cost-"), "no partition series left");

            // Warm: the second time round the JIT has compiled the path (the figure a running broker sees).
            hosted.set(partitions);
            start = System.nanoTime();
            partitionMetrics.reconcile();
            System.out.printf("PartitionMetrics warm register: %.1f us per partition; a warm scrape %.0f ms%n",
                    (System.nanoTime() - start) / 1e3 / PARTITIONS, timeScrapeMillis(metrics));
            hosted.set(List.of());
            partitionMetrics.reconcile();
        }
    }

    private static double timeScrapeMillis(KafkaMetrics metrics) throws Exception {
        long start = System.nanoTime();
        metrics.writePrometheus(new ByteArrayOutputStream());
        return (System.nanoTime() - start) / 1e6;
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
