package io.kraft.storage.log.producer;

import io.kraft.storage.io.DurableFiles;
import io.kraft.storage.log.CorruptCheckpointException;
import io.kraft.storage.log.LogStorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The binary producer state snapshot {@code <20-digit offset>.snapshot}: the state of every producer
 * as of the log end offset in its name. Layout (big-endian): version int16, CRC32C int32 of all
 * bytes after it, offset int64, producer count int32, then per producer: id int64, epoch int16, last
 * timestamp int64, (version 2:) coordinator epoch int32, open transaction's first offset int64 (-1 when none),
 * batch count int32, and per batch: first sequence int32, last sequence int32, first
 * offset int64, last offset int64, timestamp int64. Written to a temp file and renamed into place. Version 1
 * (without the transaction fields) is still read.
 */
final class ProducerSnapshotFile {
    static final short VERSION = 2;
    static final short VERSION_WITHOUT_TRANSACTIONS = 1;
    private static final int HEADER_BYTES = 2 + 4 + 8 + 4;
    private static final int PRODUCER_BYTES_V1 = 8 + 2 + 8 + 4;
    private static final int PRODUCER_BYTES = PRODUCER_BYTES_V1 + 4 + 8;
    private static final int BATCH_BYTES = 4 + 4 + 8 + 8 + 8;
    private static final int CRC_POSITION = 2;
    private static final int CRC_COVERS_FROM = 6;

    private ProducerSnapshotFile() {
    }

    /** Writes the snapshot; without {@code durable} a crash may lose or tear it, which loading detects. */
    static void write(Path file, long offset, Collection<ProducerStateEntry> entries, boolean durable) {
        int size = HEADER_BYTES;
        for (ProducerStateEntry entry : entries) {
            size += PRODUCER_BYTES + entry.batches().size() * BATCH_BYTES;
        }
        ByteBuffer buffer = ByteBuffer.allocate(size);
        buffer.putShort(VERSION).putInt(0).putLong(offset).putInt(entries.size());
        for (ProducerStateEntry entry : entries) {
            buffer.putLong(entry.producerId()).putShort(entry.producerEpoch()).putLong(entry.lastTimestampMs())
                    .putInt(entry.coordinatorEpoch()).putLong(entry.currentTxnFirstOffset())
                    .putInt(entry.batches().size());
            for (BatchMetadata batch : entry.batches()) {
                buffer.putInt(batch.firstSequence()).putInt(batch.lastSequence()).putLong(batch.firstOffset())
                        .putLong(batch.lastOffset()).putLong(batch.timestampMs());
            }
        }
        buffer.putInt(CRC_POSITION, (int) crc(buffer.array(), size));
        if (buffer.hasRemaining()) {
            throw new IllegalStateException("producer snapshot " + file + " sized " + size + " bytes filled only "
                    + buffer.position());
        }
        try {
            DurableFiles.writeAtomically(file, buffer.array(), durable);
        } catch (IOException e) {
            throw new LogStorageException("cannot write producer snapshot " + file, e);
        }
    }

    /**
     * Reads a snapshot written at {@code offset}.
     *
     * @throws CorruptCheckpointException when the file is short, of another version or offset, fails
     *     its checksum, or its counts disagree with its length
     */
    static List<ProducerStateEntry> read(Path file, long offset) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new CorruptCheckpointException("producer snapshot " + file + " vanished while loading");
        } catch (IOException e) {
            throw new LogStorageException("cannot read producer snapshot " + file, e);
        }
        if (bytes.length < HEADER_BYTES) {
            throw corrupt(file, "has " + bytes.length + " bytes, less than its " + HEADER_BYTES + "-byte header");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        short version = buffer.getShort();
        if (version != VERSION && version != VERSION_WITHOUT_TRANSACTIONS) {
            throw corrupt(file, "has version " + version + ", expected " + VERSION_WITHOUT_TRANSACTIONS + " or "
                    + VERSION);
        }
        int producerBytes = version == VERSION ? PRODUCER_BYTES : PRODUCER_BYTES_V1;
        long stored = Integer.toUnsignedLong(buffer.getInt());
        long computed = crc(bytes, bytes.length);
        if (stored != computed) {
            throw corrupt(file, "has checksum " + stored + " but its bytes give " + computed);
        }
        long fileOffset = buffer.getLong();
        if (fileOffset != offset) {
            throw corrupt(file, "holds the state at offset " + fileOffset + ", not " + offset);
        }
        int count = buffer.getInt();
        if (count < 0 || (long) count * producerBytes > buffer.remaining()) {
            throw corrupt(file, "claims " + count + " producers in " + buffer.remaining() + " bytes");
        }
        List<ProducerStateEntry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            if (buffer.remaining() < producerBytes) {
                throw corrupt(file, "ends inside producer " + i + " of " + count);
            }
            long producerId = buffer.getLong();
            short epoch = buffer.getShort();
            long lastTimestamp = buffer.getLong();
            int coordinatorEpoch = ProducerStateEntry.NO_COORDINATOR_EPOCH;
            long txnFirstOffset = ProducerStateEntry.NO_TXN;
            if (version == VERSION) {
                coordinatorEpoch = buffer.getInt();
                txnFirstOffset = buffer.getLong();
                if (txnFirstOffset < ProducerStateEntry.NO_TXN) {
                    throw corrupt(file, "gives producer " + producerId + " a transaction at offset " + txnFirstOffset);
                }
            }
            int batchCount = buffer.getInt();
            if (batchCount < 0 || batchCount > ProducerStateEntry.MAX_CACHED_BATCHES
                    || buffer.remaining() < batchCount * BATCH_BYTES) {
                throw corrupt(file, "claims " + batchCount + " batches for producer " + producerId + " in "
                        + buffer.remaining() + " bytes");
            }
            List<BatchMetadata> batches = new ArrayList<>(batchCount);
            for (int b = 0; b < batchCount; b++) {
                batches.add(new BatchMetadata(buffer.getInt(), buffer.getInt(), buffer.getLong(), buffer.getLong(),
                        buffer.getLong()));
            }
            entries.add(new ProducerStateEntry(producerId, epoch, batches, lastTimestamp, coordinatorEpoch,
                    txnFirstOffset));
        }
        if (buffer.hasRemaining()) {
            throw corrupt(file, "has " + buffer.remaining() + " bytes after its last producer");
        }
        return entries;
    }

    private static long crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, CRC_COVERS_FROM, length - CRC_COVERS_FROM);
        return crc.getValue();
    }

    private static CorruptCheckpointException corrupt(Path file, String problem) {
        return new CorruptCheckpointException("producer snapshot " + file + " " + problem);
    }
}
