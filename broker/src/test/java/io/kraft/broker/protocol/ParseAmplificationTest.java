package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.protocol.codec.ParseBudget;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.MetadataRequest;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A parsed request costs heap in proportion to its frame: a frame of tiny array elements is refused before its
 * elements are built, and no request of any API and version, however its fields are filled, allocates more while
 * parsing than its {@link ParseBudget} plus its own bytes (for strings' contents).
 */
class ParseAmplificationTest {
    private final ApiVersionsTable table = ApiVersionsTable.allDeclared();

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** A Metadata v4 frame (without its size prefix) whose topics are {@code count} empty names. */
    private static ByteBuffer emptyNames(int count) {
        byte[] clientId = "amplifier".getBytes(StandardCharsets.UTF_8);
        ByteBuffer frame = ByteBuffer.allocate(2 + 2 + 4 + 2 + clientId.length + 4 + count * 2 + 1);
        frame.putShort((short) 3).putShort((short) 4).putInt(1).putShort((short) clientId.length).put(clientId)
                .putInt(count);
        return frame.position(frame.capacity()).flip();
    }

    @Test
    void aFrameOfTinyElementsIsRefusedBeforeTheyAreBuiltWhileWithoutABudgetItWouldAmplify() {
        ByteBuffer frame = emptyNames(5_000_000); // 10 MB
        long before = allocatedBytes();
        assertThrows(MalformedRequestException.class, () -> RequestFrame.parse(frame.duplicate(), table));
        long refused = allocatedBytes() - before;

        ByteBuffer body = frame.duplicate().position(2 + 2 + 4 + 2 + 9);
        before = allocatedBytes();
        new MetadataRequest().read(body, (short) 4); // the same body read with no budget open, as before the cap
        long unbounded = allocatedBytes() - before;
        System.out.printf("10 MB frame of 5,000,000 empty topic names: %d KiB allocated until refused; %d MiB when"
                + " built without a parse budget (%.1f bytes per frame byte)%n", refused >> 10, unbounded >> 20,
                unbounded / (double) frame.remaining());
        assertTrue(refused < 1 << 20, "refusing the frame allocated " + refused + " bytes");
    }

    @Test
    void everyRequestOfEveryVersionCostsAtMostASmallMultipleOfItsFrame() throws RequestParseException {
        double worst = 0;
        String worstCase = "";
        for (ProtocolCase c : ProtocolCase.all()) {
            if (!c.request()) {
                continue;
            }
            Random random = c.random("amplification");
            for (int i = 0; i < 30; i++) {
                ApiMessage body = OurRandom.message(c, random);
                ByteBuffer frame;
                try {
                    frame = RequestFrame.toBuffer(1, "amp", body, c.version());
                } catch (RuntimeException unwritable) {
                    continue;
                }
                frame.position(4);
                int bytes = frame.remaining();
                long before = allocatedBytes();
                RequestFrame.parse(frame, table);
                long allocated = allocatedBytes() - before;
                // small frames are dominated by fixed costs (header, body object): judge those of 200 bytes and more
                if (bytes >= 200 && allocated / (double) bytes > worst) {
                    worst = allocated / (double) bytes;
                    worstCase = c + " (" + bytes + " bytes)";
                }
                assertTrue(allocated <= ParseBudget.forFrame(bytes) + 2L * bytes, c.where() + ": parsing " + bytes
                        + " bytes allocated " + allocated);
            }
        }
        System.out.printf("parse amplification: at most %.1f heap bytes allocated per frame byte, by %s%s%n", worst,
                worstCase, TestSeed.replay());
        assertTrue(worst <= 64, "parsing " + worstCase + " allocated " + worst + " bytes per frame byte"
                + TestSeed.replay());
    }
}
