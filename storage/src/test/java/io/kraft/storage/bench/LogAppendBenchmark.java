package io.kraft.storage.bench;

import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * Append throughput of the partition log (validation, offset assignment, indexing, rolling; page cache,
 * no fsync on the appending thread) against a plain {@code FileChannel.write} loop of the same 64 KiB batches on the same disk.
 * Both start over every 512 MiB, before the kernel writes the dirty pages back, so a run neither fills
 * the disk nor measures it: the log truncates itself fully (deleting its one segment), the baseline
 * truncates its file. Segments are 1 GiB (Kafka's default), so no roll happens in between.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LogAppendBenchmark {
    private static final long RESET_BYTES = 512L * 1024 * 1024;

    private ByteBuffer batch;
    private Path dir;
    private Log log;
    private FileChannel plain;
    private ExecutorService flusher;
    private long logBytesSinceReset;
    private long plainBytesSinceReset;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        batch = BenchBatches.batchOf1KiBRecords(42);
        dir = BenchBatches.newDir("kraft-bench-append-");
        Path logDir = dir.resolve("bench-0");
        java.nio.file.Files.createDirectories(logDir);
        // As in a broker: segments rolled by appends are fsynced on a background thread.
        flusher = Executors.newSingleThreadExecutor();
        // file.delete.delay.ms 0: the truncated segment's pages go at once, as the baseline's do on truncate.
        log = Log.open(logDir, LogConfig.defaults().toBuilder().fileDeleteDelayMs(0).build(), 0, 0, false, flusher);
        plain = FileChannel.open(dir.resolve("plain.bin"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        flusher.shutdown();
        log.close();
        plain.close();
        BenchBatches.deleteRecursively(dir);
    }

    /** One 64 KiB batch appended to the log; ops/s x 64 KiB = bytes/s. */
    @Benchmark
    public long logAppend() {
        ByteBuffer bytes = batch.duplicate();
        long last = log.append(bytes, 0, 1_700_000_000_000L).lastOffset();
        logBytesSinceReset += batch.remaining();
        if (logBytesSinceReset >= RESET_BYTES) {
            log.truncateFullyAndStartAt(log.logEndOffset());
            logBytesSinceReset = 0;
        }
        return last;
    }

    /** The same bytes through a bare FileChannel.write loop: the ceiling the log is measured against. */
    @Benchmark
    public long fileChannelWrite() throws IOException {
        ByteBuffer bytes = batch.duplicate();
        while (bytes.hasRemaining()) {
            plain.write(bytes);
        }
        plainBytesSinceReset += batch.remaining();
        if (plainBytesSinceReset >= RESET_BYTES) {
            plain.truncate(0);
            plain.position(0);
            plainBytesSinceReset = 0;
        }
        return plainBytesSinceReset;
    }
}
