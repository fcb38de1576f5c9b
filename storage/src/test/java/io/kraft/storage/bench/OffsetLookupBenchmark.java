package io.kraft.storage.bench;

import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import io.kraft.storage.log.LogReadResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of finding a random offset in a log of 1,000 segments: segment lookup, sparse index search
 * and the short scan to the batch, as every fetch does before it sends bytes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class OffsetLookupBenchmark {
    static final int SEGMENTS = 1000;
    /** 16 batches (1,008 records) per segment. */
    private static final int SEGMENT_BYTES = 16 * 64 * 1024 + 1024;

    private Path dir;
    private Log log;
    private final SplittableRandom random = new SplittableRandom(1);

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        ByteBuffer batch = BenchBatches.batchOf1KiBRecords(3);
        dir = BenchBatches.newDir("kraft-bench-lookup-");
        Path logDir = dir.resolve("bench-0");
        Files.createDirectories(logDir);
        log = Log.open(logDir, LogConfig.defaults().toBuilder().segmentBytes(SEGMENT_BYTES).build());
        while (log.numberOfSegments() < SEGMENTS) {
            log.append(batch.duplicate(), 0, 1_700_000_000_000L);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        log.close();
        BenchBatches.deleteRecursively(dir);
    }

    @Benchmark
    public long lookupRandomOffset() {
        long offset = random.nextLong(log.logEndOffset());
        LogReadResult result = log.read(offset, 1, true);
        return result.records().position();
    }
}
