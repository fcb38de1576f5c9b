package io.kraft.broker.group.share;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.storage.log.FileSlice;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchBoundsTest {
    /** A batch's bytes: only the header fields BatchBounds reads are set. */
    private static ByteBuffer batch(long baseOffset, int lastOffsetDelta, int totalBytes) {
        ByteBuffer b = ByteBuffer.allocate(totalBytes);
        b.putLong(0, baseOffset);
        b.putInt(8, totalBytes - 12);
        b.putInt(23, lastOffsetDelta);
        return b;
    }

    @Test
    void findsTheEndOfTheWholeBatchesAndCutsAPartialLastOne(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("00000000000000000000.log");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ)) {
            channel.write(ByteBuffer.allocate(7)); // bytes before the slice
            channel.write(batch(10, 4, 80));
            channel.write(batch(15, 0, 70));
            channel.write(batch(16, 9, 100));
            BatchBounds.Whole all = BatchBounds.of(new FileSlice(channel, 7, 250));
            assertEquals(26, all.endOffset());
            assertEquals(250, all.slice().sizeBytes());
            BatchBounds.Whole partial = BatchBounds.of(new FileSlice(channel, 7, 200));
            assertEquals(16, partial.endOffset());
            assertEquals(150, partial.slice().sizeBytes());
            BatchBounds.Whole none = BatchBounds.of(new FileSlice(channel, 7, 50));
            assertEquals(-1, none.endOffset());
            assertEquals(0, none.slice().sizeBytes());
        }
        assertEquals(257, Files.size(file));
    }
}
