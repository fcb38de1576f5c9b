package io.kraft.server.fuzz;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.Random;

/**
 * Fills any protobuf message with random values walking its descriptor, so every Raft and controller RPC is fuzzed
 * from its .proto structure: extremes and small values for numbers, empty, long and odd strings, random bytes,
 * repeated and map fields of a few entries, nested messages a few levels deep.
 */
final class RandomProtos {
    private RandomProtos() {
    }

    static <B extends Message.Builder> B fill(B builder, Random random) {
        fill(builder, random, 0);
        return builder;
    }

    private static void fill(Message.Builder builder, Random random, int depth) {
        for (FieldDescriptor field : builder.getDescriptorForType().getFields()) {
            if (random.nextInt(5) == 0) {
                continue; // left at its default
            }
            if (field.isRepeated()) {
                int n = random.nextInt(depth > 1 ? 2 : 4);
                for (int i = 0; i < n; i++) {
                    Object value = value(builder, field, random, depth);
                    if (value != null) {
                        builder.addRepeatedField(field, value);
                    }
                }
            } else {
                Object value = value(builder, field, random, depth);
                if (value != null) {
                    builder.setField(field, value);
                }
            }
        }
    }

    private static Object value(Message.Builder builder, FieldDescriptor field, Random random, int depth) {
        return switch (field.getJavaType()) {
            case INT -> (int) interesting(random);
            case LONG -> interesting(random);
            case BOOLEAN -> random.nextBoolean();
            case FLOAT -> random.nextFloat();
            case DOUBLE -> random.nextDouble();
            case STRING -> string(random);
            case BYTE_STRING -> {
                byte[] bytes = new byte[random.nextInt(64)];
                random.nextBytes(bytes);
                yield ByteString.copyFrom(bytes);
            }
            case ENUM -> {
                EnumDescriptor type = field.getEnumType();
                yield type.getValues().get(random.nextInt(type.getValues().size()));
            }
            case MESSAGE -> {
                if (depth > 3) {
                    yield null;
                }
                Message.Builder nested = builder.newBuilderForField(field);
                fill(nested, random, depth + 1);
                yield nested.build();
            }
        };
    }

    static long interesting(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> random.nextLong();
            case 1 -> random.nextInt(20) - 5;
            case 2 -> 1L << random.nextInt(63);
            case 3 -> Integer.MAX_VALUE;
            case 4 -> random.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
            default -> random.nextBoolean() ? Integer.MIN_VALUE : -1;
        };
    }

    private static String string(Random random) {
        return switch (random.nextInt(5)) {
            case 0 -> "";
            case 1 -> "x".repeat(random.nextInt(4096));
            case 2 -> "t" + random.nextInt(100);
            case 3 -> "\u0000\uFFFF\uD83D\uDE00";
            default -> Long.toString(random.nextLong(), 36);
        };
    }
}
