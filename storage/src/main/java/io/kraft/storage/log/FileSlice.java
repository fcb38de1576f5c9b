package io.kraft.storage.log;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A byte range of a segment file: the zero-copy result of a log read, ready for
 * {@link FileChannel#transferTo} or a Netty {@code DefaultFileRegion(channel, position, sizeBytes)}.
 * The last batch may be partial when the read hit maxBytes (Kafka clients skip it).
 */
public record FileSlice(FileChannel channel, long position, int sizeBytes) {
    private static final FileSlice EMPTY = new FileSlice(null, 0, 0);

    public FileSlice {
        if (sizeBytes < 0 || position < 0) {
            throw new IllegalArgumentException("file slice needs non-negative position and size, got "
                    + position + " and " + sizeBytes);
        }
        if (channel == null && sizeBytes != 0) {
            throw new IllegalArgumentException("a non-empty file slice needs a channel");
        }
    }

    /** A slice with no bytes (reading at the log end offset). */
    public static FileSlice empty() {
        return EMPTY;
    }

    public boolean isEmpty() {
        return sizeBytes == 0;
    }

    /**
     * Transfers the whole slice to {@code target}, looping because transferTo may move fewer bytes than
     * asked; meant for blocking targets.
     *
     * @return the bytes transferred, always {@link #sizeBytes}
     * @throws EOFException if the file was truncated under the slice
     */
    public long transferTo(WritableByteChannel target) throws IOException {
        long done = 0;
        while (done < sizeBytes) {
            done += transferTo(target, done);
        }
        return done;
    }

    /**
     * One transfer attempt of the bytes from {@code offsetInSlice} on, for non-blocking targets that
     * accept part of the data per call (a FileRegion's transferTo contract).
     *
     * @return bytes transferred by this call, possibly 0 if the target is full
     */
    public long transferTo(WritableByteChannel target, long offsetInSlice) throws IOException {
        if (offsetInSlice < 0 || offsetInSlice > sizeBytes) {
            throw new IllegalArgumentException("offset " + offsetInSlice + " outside slice of " + sizeBytes + " bytes");
        }
        long remaining = sizeBytes - offsetInSlice;
        if (remaining == 0) {
            return 0;
        }
        long filePosition = position + offsetInSlice;
        long moved = channel.transferTo(filePosition, remaining, target);
        if (moved == 0 && channel.size() <= filePosition) {
            throw new EOFException("file slice at position " + position + " of " + sizeBytes
                    + " bytes extends past the end of a file truncated to " + channel.size() + " bytes");
        }
        return moved;
    }

    /** Copies the slice into a new heap buffer (tests, in-process followers, the cleaner). */
    public ByteBuffer readFully() throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(sizeBytes);
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, position + buffer.position());
            if (read < 0) {
                throw new EOFException("file slice at position " + position + " of " + sizeBytes
                        + " bytes extends past the end of its file");
            }
        }
        return buffer.flip();
    }
}
