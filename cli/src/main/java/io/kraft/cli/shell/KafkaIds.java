package io.kraft.cli.shell;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.UUID;

/** Topic and incarnation ids in the text form Kafka's tools and clients print (URL-safe base64, no padding). */
public final class KafkaIds {
    private KafkaIds() {
    }

    public static String text(UUID id) {
        byte[] bytes = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits()).array();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
