package io.kraft.metadata.image;

import java.util.Objects;
import java.util.UUID;

/**
 * Builds one topic's {@link TopicImage} from its partitions in bulk (a snapshot load): the partitions go into one
 * transient map, frozen once at {@link #build()}, instead of one persistent map version per partition as replaying
 * its records does.
 */
public final class TopicImageBuilder {
    private final String name;
    private final UUID id;
    private final PersistentMaps.Builder<Integer, PartitionRegistration> partitions =
            PersistentMaps.edit(PersistentMaps.empty());

    public TopicImageBuilder(String name, UUID id) {
        this.name = Objects.requireNonNull(name, "name");
        this.id = Objects.requireNonNull(id, "id");
    }

    public UUID id() {
        return id;
    }

    /** Adds (or replaces) a partition. */
    public TopicImageBuilder partition(int partitionId, PartitionRegistration partition) {
        partitions.put(partitionId, Objects.requireNonNull(partition, "partition"));
        return this;
    }

    /** The topic; the builder must not be used afterwards. */
    public TopicImage build() {
        return new TopicImage(name, id, partitions.build());
    }
}
