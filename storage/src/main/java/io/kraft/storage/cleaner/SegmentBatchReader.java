package io.kraft.storage.cleaner;

import io.kraft.storage.log.LogSegment;
import io.kraft.storage.log.LogStorageException;
import io.kraft.storage.record.CorruptRecordException;
import io.kraft.storage.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Reads the whole batches of one segment in file order into a reused buffer, validating each one's CRC. */
final class SegmentBatchReader {
    private final LogSegment segment;
    private final FileChannel channel;
    private final int endPosition;
    private final int maxBatchBytes;
    private ByteBuffer buffer;
    private int position;

    SegmentBatchReader(LogSegment segment, int initialBufferBytes, int maxBatchBytes) {
        this.segment = segment;
        this.channel = segment.channel();
        this.endPosition = segment.sizeBytes();
        this.maxBatchBytes = maxBatchBytes;
        this.buffer = ByteBuffer.allocate(Math.max(initialBufferBytes, RecordBatch.HEADER_SIZE));
    }

    /**
     * The next batch, valid until the following call, or null at the end of the segment.
     *
     * @throws CorruptRecordException if the segment holds a torn or corrupt batch (recovery should
     *     have removed it, so the cleaner stops rather than rewrite damaged data)
     */
    RecordBatch next() {
        if (position >= endPosition) {
            return null;
        }
        buffer.clear().limit(RecordBatch.LOG_OVERHEAD);
        readFully(position);
        int size = RecordBatch.LOG_OVERHEAD + buffer.getInt(RecordBatch.LENGTH_OFFSET);
        if (size < RecordBatch.HEADER_SIZE || size > maxBatchBytes || position + (long) size > endPosition) {
            throw new CorruptRecordException("segment " + segment.logFile() + " has a batch of " + size
                    + " bytes at position " + position + " of " + endPosition);
        }
        if (size > buffer.capacity()) {
            buffer = ByteBuffer.allocate(size);
        }
        buffer.clear().limit(size);
        readFully(position);
        buffer.flip();
        RecordBatch batch = new RecordBatch(buffer, 0);
        batch.validate();
        position += size;
        return batch;
    }

    private void readFully(int from) {
        try {
            int at = from + buffer.position();
            while (buffer.hasRemaining()) {
                int read = channel.read(buffer, at);
                if (read < 0) {
                    throw new CorruptRecordException("segment " + segment.logFile() + " ends inside the batch at position "
                            + from);
                }
                at += read;
            }
        } catch (IOException e) {
            throw new LogStorageException("cannot read " + segment.logFile() + " at position " + from, e);
        }
    }
}
