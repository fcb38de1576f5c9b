package io.kraft.metadata;

import io.kraft.proto.metadata.Uuid;
import java.util.UUID;

/** Converts between {@link UUID} and its protobuf form in metadata records. */
public final class Uuids {
    private Uuids() {
    }

    public static Uuid toProto(UUID id) {
        return Uuid.newBuilder()
                .setMostSignificantBits(id.getMostSignificantBits())
                .setLeastSignificantBits(id.getLeastSignificantBits())
                .build();
    }

    public static UUID fromProto(Uuid id) {
        return new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }
}
