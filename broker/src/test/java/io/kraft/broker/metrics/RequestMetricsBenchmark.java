package io.kraft.broker.metrics;

import io.kraft.broker.protocol.ApiKey;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the metrics add to each request on the broker's hot path: recording one request's times, and counting one
 * produced partition's messages and bytes, from two threads at once as the handler pool does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@Threads(2)
public class RequestMetricsBenchmark {
    private KafkaMetrics metrics;
    private RequestMetrics requests;
    private BrokerTopicMetrics topics;

    @Setup(Level.Trial)
    public void setUp() {
        metrics = KafkaMetrics.withoutJmx();
        requests = new RequestMetrics(metrics);
        topics = new BrokerTopicMetrics(metrics);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        metrics.close();
    }

    /** One request's five times and its count. */
    @Benchmark
    public void recordRequest() {
        long now = System.nanoTime();
        requests.record(ApiKey.PRODUCE, (short) 11, false, now - 900_000, now - 800_000, now - 500_000, now - 100_000, now);
    }

    /** One produced partition: request count, messages and bytes, for all topics and the topic. */
    @Benchmark
    public void countProducedPartition() {
        topics.produceRequest("orders", false);
        topics.produced("orders", 10, 1_000);
    }
}
