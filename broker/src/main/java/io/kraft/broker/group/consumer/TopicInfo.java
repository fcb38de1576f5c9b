package io.kraft.broker.group.consumer;

import java.util.UUID;

/** A topic as the assignors see it: its id, name and partition count, from the metadata image. */
public record TopicInfo(UUID id, String name, int partitionCount) {
}
