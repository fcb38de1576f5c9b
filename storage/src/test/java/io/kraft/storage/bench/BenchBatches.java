package io.kraft.storage.bench;

import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.RecordBatchBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Random;

/** Shared fixtures for the storage benchmarks: the batch they write and a directory on the real disk. */
final class BenchBatches {
    static final int RECORD_BYTES = 1024;
    /** 63 records of 1 KiB plus framing make a batch just under 64 KiB. */
    static final int RECORDS_PER_BATCH = 63;

    private BenchBatches() {
    }

    /** An uncompressed batch of 1 KiB records (random bytes, 16-byte keys), as a producer would send it. */
    static ByteBuffer batchOf1KiBRecords(long seed) {
        Random random = new Random(seed);
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(70 * 1024), CompressionType.NONE, 0);
        byte[] key = new byte[16];
        byte[] value = new byte[RECORD_BYTES - key.length];
        for (int i = 0; i < RECORDS_PER_BATCH; i++) {
            random.nextBytes(key);
            random.nextBytes(value);
            builder.append(1_700_000_000_000L + i, key, value);
        }
        ByteBuffer built = builder.build();
        ByteBuffer direct = ByteBuffer.allocateDirect(built.remaining());
        direct.put(built).flip();
        return direct;
    }

    /** A fresh directory under {@code kraft.bench.dir} (default: java.io.tmpdir, on the machine's disk). */
    static Path newDir(String prefix) {
        try {
            Path parent = Path.of(System.getProperty("kraft.bench.dir", System.getProperty("java.io.tmpdir")));
            return Files.createTempDirectory(parent, prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
