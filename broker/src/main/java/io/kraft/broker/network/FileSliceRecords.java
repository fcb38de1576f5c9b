package io.kraft.broker.network;

import io.kraft.broker.protocol.codec.ExternalRecords;
import io.kraft.storage.log.FileSlice;
import java.util.Objects;

/**
 * Record data of a response that stays in its log segment file: the server sends it to the socket as a
 * file region (zero copy) between the response's other bytes.
 */
public record FileSliceRecords(FileSlice slice) implements ExternalRecords {
    public FileSliceRecords {
        Objects.requireNonNull(slice, "slice");
    }

    @Override
    public int sizeInBytes() {
        return slice.sizeBytes();
    }
}
