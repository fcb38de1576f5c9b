package io.kraft.metadata.store;

import com.google.protobuf.InvalidProtocolBufferException;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.image.TopicImageBuilder;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;
import org.rocksdb.RocksIterator;

/**
 * Reads the store's topics and partitions as whole {@link TopicImage}s in one pass over each column family. A
 * partition's key starts with its topic's key and both families sort by it, so the two iterators advance together (a
 * merge join) and each topic's partitions are one contiguous run, built into one map ({@link TopicImageBuilder}).
 *
 * <p>Two threads share the work as a pipeline: a decoder reads the partitions family and parses each value, handing
 * chunks of parsed records over a small bounded queue; the caller turns them into partitions and builds the topics.
 */
final class BulkTopicsReader {
    private static final int TOPIC_KEY_LENGTH = 16;
    private static final int CHUNK = 4_096;

    /** A chunk of parsed partitions, in key order; a chunk with {@code failure} ends the stream. */
    private record Chunk(List<byte[]> keys, List<PartitionRecord> records, RuntimeException failure) {
        static final Chunk END = new Chunk(List.of(), List.of(), null);
    }

    private BulkTopicsReader() {
    }

    /**
     * Hands every topic, with all its partitions, to {@code sink} in key order.
     *
     * @throws MetadataStoreException if a partition's topic is missing, a key is malformed or a value corrupt
     */
    static void read(RocksIterator topics, RocksIterator partitions, Consumer<TopicImage> sink)
            throws InvalidProtocolBufferException {
        BlockingQueue<Chunk> chunks = new ArrayBlockingQueue<>(8);
        Thread decoder = new Thread(() -> decode(partitions, chunks), "metadata-snapshot-decoder");
        decoder.setDaemon(true);
        decoder.start();
        try {
            merge(topics, new ChunkCursor(chunks), sink);
        } finally {
            decoder.interrupt();
            join(decoder);
        }
    }

    private static void merge(RocksIterator topics, ChunkCursor partitions, Consumer<TopicImage> sink)
            throws InvalidProtocolBufferException {
        for (topics.seekToFirst(); topics.isValid(); topics.next()) {
            byte[] topicKey = topics.key();
            TopicRecord record = TopicRecord.parseFrom(topics.value());
            TopicImageBuilder topic = new TopicImageBuilder(record.getName(), uuid(topicKey));
            for (; partitions.valid(); partitions.next()) {
                byte[] partitionKey = partitions.key();
                int order = Arrays.compareUnsigned(partitionKey, 0, TOPIC_KEY_LENGTH, topicKey, 0, TOPIC_KEY_LENGTH);
                if (order > 0) {
                    break; // the next topic's
                }
                if (order < 0 || partitionKey.length != TOPIC_KEY_LENGTH + Integer.BYTES) {
                    throw orphan(partitionKey);
                }
                int partitionId = ByteBuffer.wrap(partitionKey, TOPIC_KEY_LENGTH, Integer.BYTES).getInt();
                topic.partition(partitionId, PartitionRegistration.fromRecord(partitions.record()));
            }
            sink.accept(topic.build());
        }
        if (partitions.valid()) {
            throw orphan(partitions.key());
        }
    }

    /** The decoder's loop: reads and parses the partitions family in chunks until its end (or a failure). */
    private static void decode(RocksIterator partitions, BlockingQueue<Chunk> chunks) {
        try {
            List<byte[]> keys = new ArrayList<>(CHUNK);
            List<PartitionRecord> records = new ArrayList<>(CHUNK);
            for (partitions.seekToFirst(); partitions.isValid(); partitions.next()) {
                keys.add(partitions.key());
                records.add(PartitionRecord.parseFrom(partitions.value()));
                if (keys.size() == CHUNK) {
                    chunks.put(new Chunk(keys, records, null));
                    keys = new ArrayList<>(CHUNK);
                    records = new ArrayList<>(CHUNK);
                }
            }
            if (!keys.isEmpty()) {
                chunks.put(new Chunk(keys, records, null));
            }
            chunks.put(Chunk.END);
        } catch (InterruptedException e) {
            // The reader gave up (it failed): nobody reads further.
        } catch (InvalidProtocolBufferException | RuntimeException e) {
            RuntimeException failure = e instanceof RuntimeException runtime ? runtime
                    : new MetadataStoreException("Corrupt partition in the metadata state store: " + e.getMessage(), e);
            try {
                chunks.put(new Chunk(List.of(), List.of(), failure));
            } catch (InterruptedException interrupted) {
                // The reader gave up already.
            }
        }
    }

    /** The decoded partitions as one cursor over the chunks the decoder hands over. */
    private static final class ChunkCursor {
        private final BlockingQueue<Chunk> chunks;
        private Chunk chunk;
        private int index;

        ChunkCursor(BlockingQueue<Chunk> chunks) {
            this.chunks = chunks;
            advanceChunk();
        }

        boolean valid() {
            return chunk != Chunk.END;
        }

        byte[] key() {
            return chunk.keys().get(index);
        }

        PartitionRecord record() {
            return chunk.records().get(index);
        }

        void next() {
            if (++index == chunk.keys().size()) {
                advanceChunk();
            }
        }

        private void advanceChunk() {
            try {
                chunk = chunks.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MetadataStoreException("Interrupted while loading the metadata state store");
            }
            if (chunk.failure() != null) {
                throw chunk.failure();
            }
            index = 0;
        }
    }

    private static void join(Thread decoder) {
        try {
            decoder.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static MetadataStoreException orphan(byte[] partitionKey) {
        return new MetadataStoreException("The metadata state store holds a partition of no topic (key "
                + HexFormat.of().formatHex(partitionKey) + ")");
    }

    private static UUID uuid(byte[] key) {
        if (key.length != TOPIC_KEY_LENGTH) {
            throw new MetadataStoreException("The metadata state store holds a malformed topic key of " + key.length
                    + " bytes");
        }
        ByteBuffer buffer = ByteBuffer.wrap(key);
        return new UUID(buffer.getLong(), buffer.getLong());
    }
}
