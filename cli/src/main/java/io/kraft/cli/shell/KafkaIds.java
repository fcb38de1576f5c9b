package io.kraft.cli.shell;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/** Topic and incarnation ids in the text form Kafka's tools and clients print (URL-safe base64, no padding). */
public final class KafkaIds {
    private KafkaIds() {
    }

    /** The id a text form names, or empty if it is not one. */
    public static Optional<UUID> parse(String text) {
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (bytes.length != 16) {
            return Optional.empty();
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return Optional.of(new UUID(buffer.getLong(), buffer.getLong()));
    }

    public static String text(UUID id) {
        byte[] bytes = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits()).array();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
