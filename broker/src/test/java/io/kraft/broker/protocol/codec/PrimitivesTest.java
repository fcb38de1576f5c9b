package io.kraft.broker.protocol.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.kafka.common.utils.internals.ByteUtils;
import org.junit.jupiter.api.Test;

/** Varints and UTF-8 against Kafka's encoders and the JDK. Replay with -Dkraft.seed=SEED. */
class PrimitivesTest {
    private static final long SEED = Long.getLong("kraft.seed", System.nanoTime());

    private static int interestingInt(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> r.nextInt();
            case 1 -> r.nextInt(300) - 150;
            case 2 -> 1 << r.nextInt(32);
            default -> r.nextBoolean() ? Integer.MAX_VALUE : Integer.MIN_VALUE;
        };
    }

    private static long interestingLong(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> r.nextLong();
            case 1 -> r.nextInt(300) - 150;
            case 2 -> 1L << r.nextInt(64);
            default -> r.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
        };
    }

    @Test
    void varintsMatchKafkaEncoding() {
        Random r = new Random(SEED);
        for (int i = 0; i < 20_000; i++) {
            int value = interestingInt(r);
            long wide = interestingLong(r);
            ByteBuffer ours = ByteBuffer.allocate(40);
            ByteBuffer kafka = ByteBuffer.allocate(40);
            Varints.writeUnsignedVarint(value, ours);
            Varints.writeVarint(value, ours);
            Varints.writeVarlong(wide, ours);
            Varints.writeUnsignedVarlong(wide, ours);
            ByteUtils.writeUnsignedVarint(value, kafka);
            ByteUtils.writeVarint(value, kafka);
            ByteUtils.writeVarlong(wide, kafka);
            ByteUtils.writeUnsignedVarlong(wide, kafka);
            assertEquals(kafka.flip(), ours.flip(), "value " + value + "/" + wide + " seed " + SEED);
            assertEquals(ByteUtils.sizeOfUnsignedVarint(value) + ByteUtils.sizeOfVarint(value)
                            + ByteUtils.sizeOfVarlong(wide) + ByteUtils.sizeOfUnsignedVarlong(wide),
                    Varints.sizeOfUnsignedVarint(value) + Varints.sizeOfVarint(value)
                            + Varints.sizeOfVarlong(wide) + Varints.sizeOfUnsignedVarlong(wide));
            assertEquals(value, Varints.readUnsignedVarint(ours));
            assertEquals(value, Varints.readVarint(ours));
            assertEquals(wide, Varints.readVarlong(ours));
            assertEquals(wide, Varints.readUnsignedVarlong(ours));
        }
    }

    @Test
    void overlongVarintsAreMalformed() {
        ByteBuffer six = ByteBuffer.wrap(new byte[] {-1, -1, -1, -1, -1, 1});
        assertThrows(MalformedMessageException.class, () -> Varints.readUnsignedVarint(six));
        ByteBuffer overflow = ByteBuffer.wrap(new byte[] {-1, -1, -1, -1, 0x1F}); // 35 bits
        assertThrows(MalformedMessageException.class, () -> Varints.readUnsignedVarint(overflow));
        ByteBuffer eleven = ByteBuffer.wrap(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 1});
        assertThrows(MalformedMessageException.class, () -> Varints.readVarlong(eleven));
    }

    @Test
    void utf8MatchesTheJdkIncludingSurrogates() {
        Random r = new Random(SEED);
        char[] pool = {'a', 'Z', '0', 'é', 'ω', '€', '中', '\uD83D', '\uDE00', '\u0000', '\u07FF', '\u0800', '\uFFFF'};
        for (int i = 0; i < 5_000; i++) {
            char[] chars = new char[r.nextInt(12)];
            for (int c = 0; c < chars.length; c++) {
                chars[c] = pool[r.nextInt(pool.length)];
            }
            String s = new String(chars);
            byte[] jdk = s.getBytes(StandardCharsets.UTF_8);
            assertEquals(jdk.length, Utf8.encodedLength(s), "length of " + s.codePoints().boxed().toList());
            ByteBuffer out = ByteBuffer.allocate(jdk.length);
            Utf8.write(s, out);
            assertEquals(ByteBuffer.wrap(jdk), out.flip(), "bytes of " + s.codePoints().boxed().toList());
            String decoded = Utf8.read(ByteBuffer.allocateDirect(jdk.length).put(jdk).flip(), jdk.length);
            assertEquals(new String(jdk, StandardCharsets.UTF_8), decoded);
        }
    }
}
