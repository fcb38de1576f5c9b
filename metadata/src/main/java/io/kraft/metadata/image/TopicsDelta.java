package io.kraft.metadata.image;

import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.Uuids;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.RemoveTopicRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Topic changes on top of a {@link TopicsImage}: topics created and deleted, and changed partitions, so a
 * broker can act on only what changed (see {@link #localChanges(int)}).
 */
public final class TopicsDelta {
    private final TopicsImage image;
    private final MetadataChangeListener listener;
    private final Map<UUID, TopicDelta> changedTopics = new LinkedHashMap<>();
    private final Set<UUID> createdTopicIds = new LinkedHashSet<>();
    private final Set<UUID> deletedTopicIds = new LinkedHashSet<>();
    /** Topics created in this delta by name, so name lookups stay O(1) however large the delta grows. */
    private final Map<String, UUID> createdTopicIdsByName = new HashMap<>();

    public TopicsDelta(TopicsImage image) {
        this(image, MetadataChangeListener.NONE);
    }

    public TopicsDelta(TopicsImage image, MetadataChangeListener listener) {
        this.image = image;
        this.listener = listener;
    }

    public TopicsImage image() {
        return image;
    }

    /** Topics created or with changed partitions in this delta (not deleted ones). */
    public Map<UUID, TopicDelta> changedTopics() {
        return Collections.unmodifiableMap(changedTopics);
    }

    /** Topics created in this delta and still present at its end. */
    public Set<UUID> createdTopicIds() {
        return Collections.unmodifiableSet(createdTopicIds);
    }

    /** Topics of the base image deleted in this delta; their last state is in {@link #image()}. */
    public Set<UUID> deletedTopicIds() {
        return Collections.unmodifiableSet(deletedTopicIds);
    }

    /** The id of the named topic including this delta's changes, or null if it does not exist (or was deleted). */
    public UUID topicId(String name) {
        UUID created = createdTopicIdsByName.get(name);
        if (created != null) {
            return created;
        }
        TopicImage topic = image.topic(name);
        return topic == null || deletedTopicIds.contains(topic.id()) ? null : topic.id();
    }

    /** The name of the topic including this delta's changes, or null if it does not exist (or was deleted). */
    public String topicName(UUID topicId) {
        TopicDelta changed = changedTopics.get(topicId);
        if (changed != null) {
            return changed.name();
        }
        TopicImage topic = image.topic(topicId);
        return topic == null || deletedTopicIds.contains(topicId) ? null : topic.name();
    }

    /** The partition including this delta's changes, or null if it or its topic does not exist. */
    public PartitionRegistration partition(UUID topicId, int partitionId) {
        TopicDelta changed = changedTopics.get(topicId);
        if (changed != null) {
            return changed.partition(partitionId);
        }
        return deletedTopicIds.contains(topicId) ? null : image.partition(topicId, partitionId);
    }

    /** How many partitions the topic has including this delta's changes (0 if it does not exist). */
    public int partitionCount(UUID topicId) {
        TopicDelta changed = changedTopics.get(topicId);
        if (changed != null) {
            return changed.partitionCount();
        }
        TopicImage topic = image.topic(topicId);
        return topic == null || deletedTopicIds.contains(topicId) ? 0 : topic.partitions().size();
    }

    public void replay(TopicRecord record) {
        UUID topicId = Uuids.fromProto(record.getTopicId());
        checkNewTopic(topicId, record.getName());
        changedTopics.put(topicId, new TopicDelta(new TopicImage(record.getName(), topicId, Map.of()), listener));
        createdTopicIds.add(topicId);
        createdTopicIdsByName.put(record.getName(), topicId);
        listener.topicCreated(topicId, record.getName());
    }

    /**
     * Adds a topic with all its partitions at once, as its {@link TopicRecord} followed by its
     * {@link PartitionRecord}s would (a snapshot loaded in bulk), sharing {@code topic}'s partition map.
     *
     * @throws InvalidMetadataRecordException if a topic of that id or name exists
     */
    public void addWholeTopic(TopicImage topic) {
        checkNewTopic(topic.id(), topic.name());
        listener.topicCreated(topic.id(), topic.name());
        changedTopics.put(topic.id(), TopicDelta.created(topic, listener));
        createdTopicIds.add(topic.id());
        createdTopicIdsByName.put(topic.name(), topic.id());
    }

    private void checkNewTopic(UUID topicId, String name) {
        if (changedTopics.containsKey(topicId) || (image.topic(topicId) != null && !deletedTopicIds.contains(topicId))) {
            throw new InvalidMetadataRecordException("Topic record for existing topic id " + topicId);
        }
        if (topicId(name) != null) {
            throw new InvalidMetadataRecordException("Topic record for existing topic name " + name);
        }
    }

    public void replay(PartitionRecord record) {
        topicDelta(Uuids.fromProto(record.getTopicId())).replay(record);
    }

    public void replay(PartitionChangeRecord record) {
        topicDelta(Uuids.fromProto(record.getTopicId())).replay(record);
    }

    public void replay(RemoveTopicRecord record) {
        UUID topicId = Uuids.fromProto(record.getTopicId());
        if (createdTopicIds.remove(topicId)) {
            TopicDelta created = changedTopics.remove(topicId);
            createdTopicIdsByName.remove(created.name());
            reportRemoved(created);
            return;
        }
        if (image.topic(topicId) == null || deletedTopicIds.contains(topicId)) {
            throw new InvalidMetadataRecordException("Remove topic record for unknown topic id " + topicId);
        }
        TopicDelta changed = changedTopics.remove(topicId);
        deletedTopicIds.add(topicId);
        reportRemoved(changed != null ? changed : new TopicDelta(image.topic(topicId)));
    }

    private void reportRemoved(TopicDelta topic) {
        if (listener != MetadataChangeListener.NONE) {
            new TopicDelta(topic.apply(), listener).reportRemoved();
            listener.topicRemoved(topic.id(), topic.name());
        }
    }

    private TopicDelta topicDelta(UUID topicId) {
        TopicDelta delta = changedTopics.get(topicId);
        if (delta != null) {
            return delta;
        }
        TopicImage topic = image.topic(topicId);
        if (topic == null || deletedTopicIds.contains(topicId)) {
            throw new InvalidMetadataRecordException("Partition record for unknown topic id " + topicId);
        }
        delta = new TopicDelta(topic, listener);
        changedTopics.put(topicId, delta);
        return delta;
    }

    /**
     * The replica changes this delta means for one broker: partitions it now leads whose leader or leader
     * epoch changed, partitions it now follows whose leader or leader epoch changed (or that are new to it),
     * and its replicas of deleted topics or of partitions it was removed from.
     */
    public LocalReplicaChanges localChanges(int brokerId) {
        Map<TopicIdPartition, PartitionRegistration> leaders = new HashMap<>();
        Map<TopicIdPartition, PartitionRegistration> followers = new HashMap<>();
        Set<TopicIdPartition> deletes = new HashSet<>();
        for (UUID deleted : deletedTopicIds) {
            image.topic(deleted).partitions().forEach((partitionId, partition) -> {
                if (partition.replicas().contains(brokerId)) {
                    deletes.add(new TopicIdPartition(deleted, partitionId));
                }
            });
        }
        for (TopicDelta topic : changedTopics.values()) {
            topic.partitionChanges().forEach((partitionId, partition) -> {
                // No allocation for a partition this broker neither held nor holds: a snapshot load's delta holds all.
                PartitionRegistration before = topic.image().partition(partitionId);
                boolean wasReplica = before != null && before.replicas().contains(brokerId);
                if (!partition.replicas().contains(brokerId)) {
                    if (wasReplica) {
                        deletes.add(new TopicIdPartition(topic.id(), partitionId));
                    }
                    return;
                }
                TopicIdPartition id = new TopicIdPartition(topic.id(), partitionId);
                boolean leadershipChanged = before == null || !wasReplica || before.leader() != partition.leader()
                        || before.leaderEpoch() != partition.leaderEpoch();
                if (!leadershipChanged) {
                    return;
                }
                if (partition.leader() == brokerId) {
                    leaders.put(id, partition);
                } else {
                    followers.put(id, partition);
                }
            });
        }
        return new LocalReplicaChanges(leaders, followers, deletes);
    }

    public TopicsImage apply() {
        if (changedTopics.isEmpty() && deletedTopicIds.isEmpty()) {
            return image;
        }
        // Persistent maps: only the paths to the topics this delta touched are copied.
        PersistentMaps.Builder<UUID, TopicImage> byId = PersistentMaps.edit(image.topicsById());
        PersistentMaps.Builder<String, TopicImage> byName = PersistentMaps.edit(image.topicsByName());
        for (UUID deleted : deletedTopicIds) {
            TopicImage topic = image.topic(deleted);
            byId.remove(deleted);
            byName.remove(topic.name());
        }
        for (TopicDelta delta : changedTopics.values()) {
            TopicImage topic = delta.apply();
            byId.put(topic.id(), topic);
            byName.put(topic.name(), topic);
        }
        return new TopicsImage(byId.build(), byName.build());
    }
}
