package io.kraft.storage.bench;

import io.kraft.storage.log.CommittedRead;
import io.kraft.storage.log.FileSlice;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Read throughput of the log's zero-copy path: {@link Log#read} for a fetch of {@code fetchBytes}, then
 * {@link FileSlice#transferTo} into /dev/null (a FileChannel, so the kernel moves the bytes without a
 * user-space copy, as it would into a socket). The log holds 256 MiB, read round-robin from page cache. The
 * read_committed variant adds what such a consumer's fetch costs on top (the upper bound and transaction index
 * lookups).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LogReadBenchmark {
    private static final long LOG_BYTES = 256L * 1024 * 1024;

    @Param({"1048576"})
    public int fetchBytes;

    private Path dir;
    private Log log;
    private FileChannel devNull;
    private long nextOffset;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        ByteBuffer batch = BenchBatches.batchOf1KiBRecords(7);
        dir = BenchBatches.newDir("kraft-bench-read-");
        Path logDir = dir.resolve("bench-0");
        Files.createDirectories(logDir);
        log = Log.open(logDir, LogConfig.defaults().toBuilder().segmentBytes(64 * 1024 * 1024).build());
        for (long written = 0; written < LOG_BYTES; written += batch.remaining()) {
            log.append(batch.duplicate(), 0, 1_700_000_000_000L);
        }
        devNull = FileChannel.open(Path.of("/dev/null"), StandardOpenOption.WRITE);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        log.close();
        devNull.close();
        BenchBatches.deleteRecursively(dir);
    }

    /** One fetch-sized read moved to the discarding channel; ops/s x fetchBytes = bytes/s. */
    @Benchmark
    public long readTransferTo() throws IOException {
        if (nextOffset >= log.logEndOffset()) {
            nextOffset = 0;
        }
        FileSlice slice = log.read(nextOffset, fetchBytes, true).records();
        long moved = slice.transferTo(devNull);
        nextOffset += (long) BenchBatches.RECORDS_PER_BATCH * Math.max(1, slice.sizeBytes() / (64 * 1024));
        return moved;
    }

    /**
     * The same fetch as a read_committed consumer's: bounded by the last stable offset, with the aborted
     * transactions overlapping it collected from the transaction indexes (none here: the cost of the lookups).
     */
    @Benchmark
    public long readCommittedTransferTo() throws IOException {
        if (nextOffset >= log.logEndOffset()) {
            nextOffset = 0;
        }
        long end = log.logEndOffset();
        CommittedRead read = log.readCommitted(nextOffset, fetchBytes, log.lastStableOffset(end), true);
        FileSlice slice = read.result().records();
        long moved = slice.transferTo(devNull) + read.abortedTransactions().size();
        nextOffset += (long) BenchBatches.RECORDS_PER_BATCH * Math.max(1, slice.sizeBytes() / (64 * 1024));
        return moved;
    }
}
