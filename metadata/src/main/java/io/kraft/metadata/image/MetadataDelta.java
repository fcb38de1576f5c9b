package io.kraft.metadata.image;

import io.kraft.metadata.MetadataRecords;
import io.kraft.proto.metadata.MetadataRecord;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Records applied on top of a {@link MetadataImage}; {@link #apply()} gives the next image. This is the one place
 * that gives each record type its meaning: the loader applies committed batches with it, the state store persists
 * what it changed, and the active controller reads the committed image through a delta of the records it generated
 * but that have not committed yet. Each part of the image gets its own delta only once a record touches it, and the
 * sub-deltas tell consumers what changed; the read methods ({@link #broker}, {@link #topicId}, ...) give the state
 * including the delta, and a {@link MetadataChangeListener} hears each entity change as it happens. Not
 * thread-safe: one owner replays, then hands out the applied image.
 */
public final class MetadataDelta {
    private final MetadataImage image;
    private final MetadataChangeListener listener;
    private long offset;
    private int epoch;
    private ClusterDelta clusterDelta;
    private TopicsDelta topicsDelta;
    private ConfigurationsDelta configsDelta;
    private ProducerIdsDelta producerIdsDelta;
    private FeaturesDelta featuresDelta;
    private TransactionsDelta transactionsDelta;
    private AclsDelta aclsDelta;
    private ScramDelta scramDelta;
    private ClientQuotasDelta clientQuotasDelta;

    public MetadataDelta(MetadataImage image) {
        this(image, MetadataChangeListener.NONE);
    }

    /** A delta whose entity changes are reported to {@code listener} as records are replayed. */
    public MetadataDelta(MetadataImage image, MetadataChangeListener listener) {
        this.image = Objects.requireNonNull(image, "image");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.offset = image.offset();
        this.epoch = image.epoch();
    }

    public MetadataImage image() {
        return image;
    }

    /** Applies one record found at the given log offset, written in the given leader epoch. */
    public void replay(MetadataRecord record, long recordOffset, int recordEpoch) {
        if (recordOffset <= offset) {
            throw new IllegalArgumentException("Record offset " + recordOffset + " is not after " + offset);
        }
        switch (MetadataRecords.checkReadable(record)) {
            case REGISTER_BROKER -> clusterDelta().replay(record.getRegisterBroker(), recordOffset);
            case BROKER_REGISTRATION_CHANGE -> clusterDelta().replay(record.getBrokerRegistrationChange(), recordOffset);
            case FENCE_BROKER -> clusterDelta().replay(record.getFenceBroker(), recordOffset);
            case UNFENCE_BROKER -> clusterDelta().replay(record.getUnfenceBroker(), recordOffset);
            case UNREGISTER_BROKER -> clusterDelta().replay(record.getUnregisterBroker(), recordOffset);
            case TOPIC -> topicsDelta().replay(record.getTopic());
            case PARTITION -> topicsDelta().replay(record.getPartition());
            case PARTITION_CHANGE -> topicsDelta().replay(record.getPartitionChange());
            case REMOVE_TOPIC -> topicsDelta().replay(record.getRemoveTopic());
            case CONFIG -> configsDelta().replay(record.getConfig());
            case PRODUCER_IDS -> producerIdsDelta().replay(record.getProducerIds());
            case FEATURE_LEVEL -> featuresDelta().replay(record.getFeatureLevel());
            case TRANSACTION -> transactionsDelta().replay(record.getTransaction(), recordEpoch);
            case REMOVE_TRANSACTION -> transactionsDelta().replay(record.getRemoveTransaction());
            case ACCESS_CONTROL_ENTRY -> aclsDelta().replay(record.getAccessControlEntry());
            case REMOVE_ACCESS_CONTROL_ENTRY -> aclsDelta().replay(record.getRemoveAccessControlEntry());
            case USER_SCRAM_CREDENTIAL -> scramDelta().replay(record.getUserScramCredential());
            case REMOVE_USER_SCRAM_CREDENTIAL -> scramDelta().replay(record.getRemoveUserScramCredential());
            case CLIENT_QUOTA -> clientQuotasDelta().replay(record.getClientQuota());
            case RECORD_NOT_SET -> throw new IllegalStateException("checked by checkReadable");
        }
        offset = recordOffset;
        epoch = recordEpoch;
    }

    /** Applies one record in the epoch of the previous record. */
    public void replay(MetadataRecord record, long recordOffset) {
        replay(record, recordOffset, epoch);
    }

    /** Applies consecutive records, the first at {@code firstOffset}, all from one leader epoch. */
    public void replayBatch(List<MetadataRecord> records, long firstOffset, int batchEpoch) {
        long recordOffset = firstOffset;
        for (MetadataRecord record : records) {
            replay(record, recordOffset++, batchEpoch);
        }
    }

    /** The offset of the last record replayed (the image's offset if none). */
    public long offset() {
        return offset;
    }

    /** The position of the last record replayed (the image's if none): where {@link #apply()} puts the image. */
    public MetadataProvenance provenance() {
        return new MetadataProvenance(offset, epoch);
    }

    // ---- the state including this delta ----------------------------------------------------------------------

    /** The broker's registration, or null if it never registered. */
    public BrokerRegistration broker(int brokerId) {
        return clusterDelta == null ? image.cluster().broker(brokerId) : clusterDelta.broker(brokerId);
    }

    /** The id of the named topic, or null if there is none. */
    public UUID topicId(String name) {
        if (topicsDelta != null) {
            return topicsDelta.topicId(name);
        }
        TopicImage topic = image.topics().topic(name);
        return topic == null ? null : topic.id();
    }

    /** The name of the topic, or null if there is none with that id. */
    public String topicName(UUID topicId) {
        if (topicsDelta != null) {
            return topicsDelta.topicName(topicId);
        }
        TopicImage topic = image.topics().topic(topicId);
        return topic == null ? null : topic.name();
    }

    /** The partition, or null if it or its topic does not exist. */
    public PartitionRegistration partition(UUID topicId, int partitionId) {
        return topicsDelta == null ? image.topics().partition(topicId, partitionId)
                : topicsDelta.partition(topicId, partitionId);
    }

    /** The topic's partition count (partition ids are 0 to count - 1), 0 if there is no such topic. */
    public int partitionCount(UUID topicId) {
        if (topicsDelta != null) {
            return topicsDelta.partitionCount(topicId);
        }
        TopicImage topic = image.topics().topic(topicId);
        return topic == null ? 0 : topic.partitions().size();
    }

    /** The resource's config overrides (empty if none). */
    public Map<String, String> configs(ConfigResource resource) {
        return configsDelta == null ? image.configs().configs(resource) : configsDelta.configs(resource);
    }

    /** The next producer id to hand out. */
    public long nextProducerId() {
        return producerIdsDelta == null ? image.producerIds().nextProducerId() : producerIdsDelta.nextProducerId();
    }

    /** The feature's finalized level (0 = off). */
    public int featureLevel(String name) {
        return featuresDelta == null ? image.features().level(name) : featuresDelta.level(name);
    }

    /** The transactional id's state, or null if it is unknown. */
    public TransactionMetadata transaction(String transactionalId) {
        return transactionsDelta == null ? image.transactions().transaction(transactionalId)
                : transactionsDelta.transaction(transactionalId);
    }

    /** The user's SCRAM credential for the mechanism, or null. */
    public ScramCredential scramCredential(String user, ScramMechanism mechanism) {
        return scramDelta == null ? image.scram().credential(user, mechanism) : scramDelta.credential(user, mechanism);
    }

    // ---- per-area deltas -------------------------------------------------------------------------------------

    public ClusterDelta clusterDelta() {
        if (clusterDelta == null) {
            clusterDelta = new ClusterDelta(image.cluster(), listener);
        }
        return clusterDelta;
    }

    public TopicsDelta topicsDelta() {
        if (topicsDelta == null) {
            topicsDelta = new TopicsDelta(image.topics(), listener);
        }
        return topicsDelta;
    }

    public ConfigurationsDelta configsDelta() {
        if (configsDelta == null) {
            configsDelta = new ConfigurationsDelta(image.configs());
        }
        return configsDelta;
    }

    public ProducerIdsDelta producerIdsDelta() {
        if (producerIdsDelta == null) {
            producerIdsDelta = new ProducerIdsDelta(image.producerIds());
        }
        return producerIdsDelta;
    }

    public FeaturesDelta featuresDelta() {
        if (featuresDelta == null) {
            featuresDelta = new FeaturesDelta(image.features());
        }
        return featuresDelta;
    }

    public TransactionsDelta transactionsDelta() {
        if (transactionsDelta == null) {
            transactionsDelta = new TransactionsDelta(image.transactions(), listener);
        }
        return transactionsDelta;
    }

    public AclsDelta aclsDelta() {
        if (aclsDelta == null) {
            aclsDelta = new AclsDelta(image.acls(), listener);
        }
        return aclsDelta;
    }

    public ClientQuotasDelta clientQuotasDelta() {
        if (clientQuotasDelta == null) {
            clientQuotasDelta = new ClientQuotasDelta(image.clientQuotas());
        }
        return clientQuotasDelta;
    }

    /** Whether any record set or removed a client quota. */
    public boolean hasClientQuotaChanges() {
        return clientQuotasDelta != null;
    }

    /** Whether any record created or deleted an ACL. */
    public boolean hasAclChanges() {
        return aclsDelta != null;
    }

    public ScramDelta scramDelta() {
        if (scramDelta == null) {
            scramDelta = new ScramDelta(image.scram());
        }
        return scramDelta;
    }

    /** Whether any record touched the SCRAM credentials. */
    public boolean hasScramChanges() {
        return scramDelta != null;
    }

    /** Whether any record touched the transactional ids. */
    public boolean hasTransactionChanges() {
        return transactionsDelta != null;
    }

    /** Whether any record touched the brokers. */
    public boolean hasClusterChanges() {
        return clusterDelta != null;
    }

    /** Whether any record touched the topics (a broker's replica manager looks only then). */
    public boolean hasTopicChanges() {
        return topicsDelta != null;
    }

    /** Whether any record touched the configs. */
    public boolean hasConfigChanges() {
        return configsDelta != null;
    }

    /** Whether any record touched the producer id allocation. */
    public boolean hasProducerIdChanges() {
        return producerIdsDelta != null;
    }

    /** Whether any record touched the features. */
    public boolean hasFeatureChanges() {
        return featuresDelta != null;
    }

    /**
     * The image that snapshot records describe (see {@link MetadataImage#toRecords()}), tagged with the log
     * position the snapshot was taken at; snapshot records have no offsets of their own.
     */
    public static MetadataImage imageOf(List<MetadataRecord> snapshotRecords, MetadataProvenance provenance) {
        return fromSnapshot(snapshotRecords, provenance.epoch()).apply(provenance);
    }

    /**
     * The delta from the empty image to what snapshot records describe: what a loaded snapshot publishes (every
     * broker, topic and config is new). Apply it at the snapshot's position with {@link #apply(MetadataProvenance)}.
     */
    public static MetadataDelta fromSnapshot(List<MetadataRecord> snapshotRecords, int epoch) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replayBatch(snapshotRecords, 0, epoch);
        return delta;
    }

    /** The image with every replayed record applied, at the last record's offset and epoch. */
    public MetadataImage apply() {
        return apply(new MetadataProvenance(offset, epoch));
    }

    /** The image with every replayed record applied, tagged with {@code provenance} (a snapshot's position). */
    public MetadataImage apply(MetadataProvenance provenance) {
        return new MetadataImage(
                provenance,
                clusterDelta == null ? image.cluster() : clusterDelta.apply(),
                topicsDelta == null ? image.topics() : topicsDelta.apply(),
                configsDelta == null ? image.configs() : configsDelta.apply(),
                producerIdsDelta == null ? image.producerIds() : producerIdsDelta.apply(),
                featuresDelta == null ? image.features() : featuresDelta.apply(),
                transactionsDelta == null ? image.transactions() : transactionsDelta.apply(),
                aclsDelta == null ? image.acls() : aclsDelta.apply(),
                scramDelta == null ? image.scram() : scramDelta.apply(),
                clientQuotasDelta == null ? image.clientQuotas() : clientQuotasDelta.apply());
    }
}
