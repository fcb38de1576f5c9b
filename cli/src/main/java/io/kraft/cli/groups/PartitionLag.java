package io.kraft.cli.groups;

import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.clients.admin.MemberDescription;

/**
 * One row of {@code groups --describe}: a partition the group has committed to or is assigned, its committed
 * offset and the log end offset (either may be unknown), and the member that owns it, if any.
 */
public record PartitionLag(String group, String topic, int partition, OptionalLong committedOffset,
                           OptionalLong logEndOffset, Optional<MemberDescription> owner) {
    /** Log end minus committed offset; unknown unless both are known. */
    public OptionalLong lag() {
        if (committedOffset.isEmpty() || logEndOffset.isEmpty()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Math.max(0, logEndOffset.getAsLong() - committedOffset.getAsLong()));
    }
}
