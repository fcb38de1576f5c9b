package io.kraft.broker.protocol;

import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.AlterConfigsRequest;
import io.kraft.broker.protocol.message.CreatePartitionsRequest;
import io.kraft.broker.protocol.message.CreateTopicsRequest;
import io.kraft.broker.protocol.message.DeleteTopicsRequest;
import io.kraft.broker.protocol.message.IncrementalAlterConfigsRequest;
import io.kraft.broker.protocol.message.ProduceRequest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Request frames for fuzzing a live broker, built from the specs: every API at every version the broker accepts,
 * with random values in every field (the extremes, empty and long strings, nulls where nullable, nested arrays),
 * produce requests carrying {@link FuzzBatches}, and then, for some, a byte-level mutation of the finished frame
 * (truncated, lengths overwritten with hostile values, junk appended, random bytes, an oversized size prefix).
 * Requests that would change what the well-behaved clients beside the fuzzer rely on (topic deletion, broker
 * configs) are sent as validate-only or skipped: the campaign judges robustness, not authorization.
 */
public final class FuzzFrames {
    /** What a frame is, for the campaign's tally. */
    public enum Kind { VALID_HOSTILE_VALUES, MUTATED, RANDOM_BYTES, OVERSIZED_PREFIX }

    /** One frame to send: its bytes, including the int32 size prefix, and what it is. */
    public record Frame(ByteBuffer bytes, Kind kind, ApiKey api, short version) {
    }

    private static final Set<ApiKey> SKIPPED = Set.of(ApiKey.DELETE_TOPICS);
    private final List<ProtocolCase> cases = new ArrayList<>();
    private final Random random;
    private int correlationId;

    public FuzzFrames(Random random) {
        this.random = random;
        for (ProtocolCase c : ProtocolCase.all()) {
            if (c.request() && !SKIPPED.contains(c.api())) {
                cases.add(c);
            }
        }
    }

    /** How many API/version pairs the frames cover. */
    public int cases() {
        return cases.size();
    }

    public Frame next() {
        int dice = random.nextInt(100);
        if (dice < 3) {
            return new Frame(randomBytes(), Kind.RANDOM_BYTES, null, (short) -1);
        }
        if (dice < 4) {
            ByteBuffer huge = ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE - random.nextInt(16)).putInt(0).flip();
            return new Frame(huge, Kind.OVERSIZED_PREFIX, null, (short) -1);
        }
        ProtocolCase c = cases.get(random.nextInt(cases.size()));
        ByteBuffer frame = validFrame(c);
        if (dice < 70) {
            return new Frame(frame, Kind.VALID_HOSTILE_VALUES, c.api(), c.version());
        }
        return new Frame(mutate(frame), Kind.MUTATED, c.api(), c.version());
    }

    private ByteBuffer validFrame(ProtocolCase c) {
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                ApiMessage body = OurRandom.message(c, random);
                neuter(body, c.version());
                return RequestFrame.toBuffer(++correlationId, clientId(), body, c.version());
            } catch (RuntimeException e) {
                // a random value the encoder cannot write at this version (e.g. a string over int16): draw again
            }
        }
        return RequestFrame.toBuffer(++correlationId, clientId(), c.newMessage(), c.version());
    }

    private String clientId() {
        return switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> "";
            case 2 -> "fuzz-" + random.nextInt(1000);
            default -> KafkaOracle.randomString(random);
        };
    }

    /** Keeps requests from undoing the steady clients' setup: admin changes are validated only, records fuzzed. */
    private void neuter(ApiMessage body, short version) {
        if (body instanceof CreateTopicsRequest create) {
            create.setValidateOnly(true);
        } else if (body instanceof CreatePartitionsRequest partitions) {
            partitions.setValidateOnly(true);
        } else if (body instanceof AlterConfigsRequest alter) {
            alter.setValidateOnly(true);
        } else if (body instanceof IncrementalAlterConfigsRequest alter) {
            alter.setValidateOnly(true);
        } else if (body instanceof ProduceRequest produce) {
            for (ProduceRequest.TopicProduceData topic : produce.topicData()) {
                for (ProduceRequest.PartitionProduceData partition : topic.partitionData()) {
                    if (random.nextInt(3) > 0) {
                        partition.setRecords(FuzzBatches.next(random));
                    }
                }
            }
        }
    }

    private ByteBuffer mutate(ByteBuffer frame) {
        byte[] bytes = new byte[frame.remaining()];
        frame.get(bytes);
        int body = Math.max(4, bytes.length);
        switch (random.nextInt(5)) {
            case 0 -> { // truncated: the size prefix says what is really there, the body ends early
                int keep = 4 + random.nextInt(Math.max(1, bytes.length - 4));
                bytes = java.util.Arrays.copyOf(bytes, keep);
            }
            case 1 -> { // a length or count overwritten with a hostile value
                int at = 4 + random.nextInt(Math.max(1, body - 4));
                int value = new int[] {-1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x7FFF, 0xFFFF, 1 << 20}[random.nextInt(6)];
                bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length, at + 4));
                ByteBuffer.wrap(bytes).putInt(at, value);
            }
            case 2 -> { // a huge unsigned varint spliced in (compact lengths)
                int at = 4 + random.nextInt(Math.max(1, body - 4));
                byte[] varint = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0x0F};
                byte[] spliced = new byte[bytes.length + varint.length];
                System.arraycopy(bytes, 0, spliced, 0, Math.min(at, bytes.length));
                System.arraycopy(varint, 0, spliced, Math.min(at, bytes.length), varint.length);
                System.arraycopy(bytes, Math.min(at, bytes.length), spliced, Math.min(at, bytes.length) + varint.length,
                        bytes.length - Math.min(at, bytes.length));
                bytes = spliced;
            }
            case 3 -> { // junk appended after the body
                byte[] junk = new byte[1 + random.nextInt(64)];
                random.nextBytes(junk);
                byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + junk.length);
                System.arraycopy(junk, 0, longer, bytes.length, junk.length);
                bytes = longer;
            }
            default -> { // a few random bytes flipped
                for (int i = 0, n = 1 + random.nextInt(8); i < n && bytes.length > 4; i++) {
                    bytes[4 + random.nextInt(bytes.length - 4)] ^= (byte) (1 + random.nextInt(255));
                }
            }
        }
        ByteBuffer out = ByteBuffer.wrap(bytes);
        out.putInt(0, bytes.length - 4);
        return out;
    }

    private ByteBuffer randomBytes() {
        byte[] bytes = new byte[4 + random.nextInt(256)];
        random.nextBytes(bytes);
        ByteBuffer out = ByteBuffer.wrap(bytes);
        if (random.nextBoolean()) {
            out.putInt(0, bytes.length - 4);
        }
        return out;
    }
}
