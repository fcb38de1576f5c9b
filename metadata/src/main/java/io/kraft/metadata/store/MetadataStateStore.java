package io.kraft.metadata.store;

import com.google.protobuf.InvalidProtocolBufferException;
import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.proto.metadata.BrokerRegistrationChangeRecord;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.ProducerIdsRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatchWithIndex;
import org.rocksdb.WriteOptions;

/**
 * The committed metadata state in RocksDB: one column family per kind of state (brokers, topics,
 * partitions, configs, producer ids, features) holding each entity's current state, plus the log
 * position (offset and epoch of the last applied record). A committed batch and its position are written
 * in one atomic write, so the store never reflects half a batch. {@link #checkpoint} copies the store as
 * a snapshot tagged with its position; a restart opens the latest checkpoint and replays the log after
 * {@link #appliedPosition()}. Not thread-safe: the metadata applier thread owns it.
 */
public final class MetadataStateStore implements AutoCloseable {
    static {
        RocksDB.loadLibrary();
    }

    private static final String[] FAMILIES = {"meta", "brokers", "topics", "partitions", "configs", "features"};

    private final Path directory;
    private final boolean readOnly;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions familyOptions;
    private final List<ColumnFamilyHandle> handles;
    private final RocksDB db;
    private final WriteOptions writeOptions = new WriteOptions();
    private final ColumnFamilyHandle meta;
    private final ColumnFamilyHandle brokers;
    private final ColumnFamilyHandle topics;
    private final ColumnFamilyHandle partitions;
    private final ColumnFamilyHandle configs;
    private final ColumnFamilyHandle features;
    private MetadataProvenance appliedPosition;

    private MetadataStateStore(Path directory, DBOptions dbOptions, ColumnFamilyOptions familyOptions,
                               List<ColumnFamilyHandle> handles, RocksDB db, boolean readOnly) {
        this.directory = directory;
        this.readOnly = readOnly;
        this.dbOptions = dbOptions;
        this.familyOptions = familyOptions;
        this.handles = handles;
        this.db = db;
        // handles.get(0) is RocksDB's default family, which this store does not use.
        this.meta = handles.get(1);
        this.brokers = handles.get(2);
        this.topics = handles.get(3);
        this.partitions = handles.get(4);
        this.configs = handles.get(5);
        this.features = handles.get(6);
        byte[] position = get(meta, StoreKeys.APPLIED_POSITION);
        this.appliedPosition = position == null ? MetadataProvenance.EMPTY
                : new MetadataProvenance(ByteBuffer.wrap(position).getLong(), ByteBuffer.wrap(position).getInt(8));
    }

    /** Opens the store in a directory, creating an empty one if the directory holds none. A checkpoint opens as a store. */
    public static MetadataStateStore open(Path directory) {
        return open(directory, false);
    }

    /**
     * Opens an existing store or checkpoint without changing it (for offline inspection of a snapshot).
     * {@link #apply} and {@link #checkpoint} are refused.
     *
     * @throws MetadataStoreException if the directory holds no readable store
     */
    public static MetadataStateStore openReadOnly(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new MetadataStoreException("No metadata state store at " + directory + ": not a directory");
        }
        return open(directory, true);
    }

    private static MetadataStateStore open(Path directory, boolean readOnly) {
        DBOptions dbOptions = new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2)
                .setKeepLogFileNum(2)
                .setInfoLogLevel(InfoLogLevel.WARN_LEVEL);
        ColumnFamilyOptions familyOptions = new ColumnFamilyOptions();
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, familyOptions));
        for (String family : FAMILIES) {
            descriptors.add(new ColumnFamilyDescriptor(family.getBytes(StandardCharsets.UTF_8), familyOptions));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try {
            RocksDB db;
            if (readOnly) {
                db = RocksDB.openReadOnly(dbOptions, directory.toString(), descriptors, handles);
            } else {
                Files.createDirectories(directory);
                db = RocksDB.open(dbOptions, directory.toString(), descriptors, handles);
            }
            return new MetadataStateStore(directory, dbOptions, familyOptions, handles, db, readOnly);
        } catch (RocksDBException | java.io.IOException e) {
            handles.forEach(ColumnFamilyHandle::close);
            familyOptions.close();
            dbOptions.close();
            throw new MetadataStoreException("Cannot open the metadata state store in " + directory + ": "
                    + oneLine(e.getMessage()), e);
        }
    }

    /** The offset and epoch of the last record applied; {@link MetadataProvenance#EMPTY} for a new store. */
    public MetadataProvenance appliedPosition() {
        return appliedPosition;
    }

    /**
     * Applies a committed batch and records its position, atomically.
     *
     * @param lastOffset the offset of the batch's last record; must be after {@link #appliedPosition()}
     * @throws InvalidMetadataRecordException if a record cannot apply (nothing of the batch is written)
     */
    public void apply(List<MetadataRecord> records, long lastOffset, int epoch) {
        checkWritable();
        if (lastOffset <= appliedPosition.offset()) {
            throw new IllegalArgumentException("Batch ending at offset " + lastOffset
                    + " is not after the applied offset " + appliedPosition.offset());
        }
        try (WriteBatchWithIndex batch = new WriteBatchWithIndex(true);
             ReadOptions readOptions = new ReadOptions()) {
            BatchView view = new BatchView(batch, readOptions);
            for (MetadataRecord record : records) {
                view.apply(record);
            }
            batch.put(meta, StoreKeys.APPLIED_POSITION, StoreKeys.position(lastOffset, epoch));
            db.write(writeOptions, batch);
        } catch (RocksDBException e) {
            throw new MetadataStoreException("Cannot write metadata batch ending at offset " + lastOffset + " to "
                    + directory + ": " + e.getMessage(), e);
        }
        appliedPosition = new MetadataProvenance(lastOffset, epoch);
    }

    /**
     * Writes a RocksDB checkpoint of the current state into {@code target}, which must not exist yet. The
     * checkpoint is itself a store: {@link #open} it to restart from the returned position.
     */
    public MetadataProvenance checkpoint(Path target) {
        checkWritable();
        if (Files.exists(target)) {
            throw new MetadataStoreException("Checkpoint target " + target + " already exists");
        }
        try (Checkpoint checkpoint = Checkpoint.create(db)) {
            checkpoint.createCheckpoint(target.toString());
            return appliedPosition;
        } catch (RocksDBException e) {
            throw new MetadataStoreException("Cannot checkpoint the metadata state store into " + target + ": "
                    + e.getMessage(), e);
        }
    }

    /** Rebuilds the image the store holds, at its applied position. */
    public MetadataImage loadImage() {
        return MetadataDelta.imageOf(snapshotRecords(), appliedPosition);
    }

    /**
     * The records that rebuild the state the store holds (see {@link MetadataImage#toRecords()}): every topic's record
     * comes before its partitions'.
     */
    public List<MetadataRecord> snapshotRecords() {
        List<MetadataRecord> records = new ArrayList<>();
        forEach(features, (key, value) -> records.add(MetadataRecords.of(FeatureLevelRecord.newBuilder()
                .setName(StoreKeys.string(key)).setLevel(StoreKeys.int32(value)).build())));
        forEach(brokers, (key, value) -> records.add(MetadataRecords.of(RegisterBrokerRecord.parseFrom(value))));
        // All topics, then all partitions in one pass (not one iterator per topic): a topic still precedes its own.
        forEach(topics, (key, value) -> records.add(MetadataRecords.of(TopicRecord.parseFrom(value))));
        forEach(partitions, (key, value) -> records.add(MetadataRecords.of(PartitionRecord.parseFrom(value))));
        forEach(configs, (key, value) -> {
            StoreKeys.ConfigKey config = StoreKeys.parseConfig(key);
            records.add(MetadataRecords.of(ConfigRecord.newBuilder()
                    .setResourceType(config.resource().type().toProto())
                    .setResourceName(config.resource().name())
                    .setName(config.key())
                    .setValue(StoreKeys.string(value))
                    .build()));
        });
        byte[] nextProducerId = get(meta, StoreKeys.NEXT_PRODUCER_ID);
        if (nextProducerId != null) {
            records.add(MetadataRecords.of(ProducerIdsRecord.newBuilder()
                    .setBrokerId(-1).setBrokerEpoch(-1).setNextProducerId(StoreKeys.int64(nextProducerId)).build()));
        }
        return records;
    }

    private interface EntryConsumer {
        void accept(byte[] key, byte[] value) throws InvalidProtocolBufferException;
    }

    private void forEach(ColumnFamilyHandle family, EntryConsumer consumer) {
        try (RocksIterator iterator = db.newIterator(family)) {
            for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                consumer.accept(iterator.key(), iterator.value());
            }
        } catch (InvalidProtocolBufferException e) {
            throw new MetadataStoreException("Corrupt entry in the metadata state store in " + directory + ": "
                    + e.getMessage(), e);
        }
    }

    private void checkWritable() {
        if (readOnly) {
            throw new IllegalStateException("The metadata state store in " + directory + " is open read-only");
        }
    }

    // RocksDB messages may span lines; callers print ours as one line.
    private static String oneLine(String message) {
        return message == null ? "" : message.replace('\n', ' ').replace('\r', ' ');
    }

    private byte[] get(ColumnFamilyHandle family, byte[] key) {
        try {
            return db.get(family, key);
        } catch (RocksDBException e) {
            throw new MetadataStoreException("Cannot read the metadata state store in " + directory + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        writeOptions.close();
        handles.forEach(ColumnFamilyHandle::close);
        db.close();
        familyOptions.close();
        dbOptions.close();
    }

    /** Applies records to a write batch, reading through it so that later records see earlier ones. */
    private final class BatchView {
        private final WriteBatchWithIndex batch;
        private final ReadOptions readOptions;

        BatchView(WriteBatchWithIndex batch, ReadOptions readOptions) {
            this.batch = batch;
            this.readOptions = readOptions;
        }

        void apply(MetadataRecord record) throws RocksDBException {
            switch (MetadataRecords.checkReadable(record)) {
                case REGISTER_BROKER -> {
                    RegisterBrokerRecord register = record.getRegisterBroker();
                    batch.put(brokers, StoreKeys.broker(register.getBrokerId()), register.toByteArray());
                }
                case BROKER_REGISTRATION_CHANGE -> {
                    BrokerRegistrationChangeRecord change = record.getBrokerRegistrationChange();
                    RegisterBrokerRecord.Builder broker = broker(change.getBrokerId(), change.getBrokerEpoch());
                    if (change.hasFenced()) {
                        broker.setFenced(change.getFenced());
                    }
                    if (change.hasInControlledShutdown()) {
                        broker.setInControlledShutdown(change.getInControlledShutdown());
                    }
                    batch.put(brokers, StoreKeys.broker(change.getBrokerId()), broker.build().toByteArray());
                }
                case FENCE_BROKER -> {
                    int brokerId = record.getFenceBroker().getBrokerId();
                    RegisterBrokerRecord.Builder broker = broker(brokerId, record.getFenceBroker().getBrokerEpoch());
                    batch.put(brokers, StoreKeys.broker(brokerId), broker.setFenced(true).build().toByteArray());
                }
                case UNFENCE_BROKER -> {
                    int brokerId = record.getUnfenceBroker().getBrokerId();
                    RegisterBrokerRecord.Builder broker = broker(brokerId, record.getUnfenceBroker().getBrokerEpoch());
                    batch.put(brokers, StoreKeys.broker(brokerId),
                            broker.setFenced(false).setInControlledShutdown(false).build().toByteArray());
                }
                case TOPIC -> {
                    UUID topicId = Uuids.fromProto(record.getTopic().getTopicId());
                    if (read(topics, StoreKeys.topic(topicId)) != null) {
                        throw new InvalidMetadataRecordException("Topic record for existing topic id " + topicId);
                    }
                    batch.put(topics, StoreKeys.topic(topicId), record.getTopic().toByteArray());
                }
                case PARTITION -> {
                    PartitionRecord partition = record.getPartition();
                    UUID topicId = existingTopic(partition.getTopicId());
                    batch.put(partitions, StoreKeys.partition(topicId, partition.getPartitionId()), partition.toByteArray());
                }
                case PARTITION_CHANGE -> {
                    PartitionChangeRecord change = record.getPartitionChange();
                    UUID topicId = existingTopic(change.getTopicId());
                    byte[] key = StoreKeys.partition(topicId, change.getPartitionId());
                    byte[] current = read(partitions, key);
                    if (current == null) {
                        throw new InvalidMetadataRecordException("Partition change for unknown partition "
                                + change.getPartitionId() + " of topic id " + topicId);
                    }
                    PartitionRegistration merged = PartitionRegistration.fromRecord(parsePartition(current)).merge(change);
                    batch.put(partitions, key,
                            merged.toRecord(topicId, change.getPartitionId()).getPartition().toByteArray());
                }
                case REMOVE_TOPIC -> {
                    UUID topicId = existingTopic(record.getRemoveTopic().getTopicId());
                    batch.delete(topics, StoreKeys.topic(topicId));
                    deletePartitions(topicId);
                }
                case CONFIG -> {
                    ConfigRecord config = record.getConfig();
                    ConfigResource resource;
                    try {
                        resource = new ConfigResource(ConfigResource.Type.fromProto(config.getResourceType()),
                                config.getResourceName());
                    } catch (IllegalArgumentException e) {
                        throw new InvalidMetadataRecordException(e.getMessage());
                    }
                    byte[] key = StoreKeys.config(resource, config.getName());
                    if (config.hasValue()) {
                        batch.put(configs, key, StoreKeys.utf8(config.getValue()));
                    } else {
                        batch.delete(configs, key);
                    }
                }
                case PRODUCER_IDS -> {
                    long next = record.getProducerIds().getNextProducerId();
                    byte[] current = read(meta, StoreKeys.NEXT_PRODUCER_ID);
                    if (current != null && next < StoreKeys.int64(current)) {
                        throw new InvalidMetadataRecordException("Producer ids record moves the next producer id back from "
                                + StoreKeys.int64(current) + " to " + next);
                    }
                    batch.put(meta, StoreKeys.NEXT_PRODUCER_ID, StoreKeys.int64(next));
                }
                case FEATURE_LEVEL -> {
                    FeatureLevelRecord feature = record.getFeatureLevel();
                    if (feature.getLevel() == 0) {
                        batch.delete(features, StoreKeys.utf8(feature.getName()));
                    } else {
                        batch.put(features, StoreKeys.utf8(feature.getName()), StoreKeys.int32(feature.getLevel()));
                    }
                }
                case RECORD_NOT_SET -> throw new IllegalStateException("checked by checkReadable");
            }
        }

        private byte[] read(ColumnFamilyHandle family, byte[] key) throws RocksDBException {
            return batch.getFromBatchAndDB(db, family, readOptions, key);
        }

        private RegisterBrokerRecord.Builder broker(int brokerId, long brokerEpoch) throws RocksDBException {
            byte[] current = read(brokers, StoreKeys.broker(brokerId));
            if (current == null) {
                throw new InvalidMetadataRecordException("Broker record for unregistered broker " + brokerId);
            }
            RegisterBrokerRecord broker;
            try {
                broker = RegisterBrokerRecord.parseFrom(current);
            } catch (InvalidProtocolBufferException e) {
                throw new MetadataStoreException("Corrupt registration of broker " + brokerId + " in " + directory, e);
            }
            if (broker.getBrokerEpoch() != brokerEpoch) {
                throw new InvalidMetadataRecordException("Record for broker " + brokerId + " with epoch " + brokerEpoch
                        + " but its registration has epoch " + broker.getBrokerEpoch());
            }
            return broker.toBuilder();
        }

        private UUID existingTopic(io.kraft.proto.metadata.Uuid id) throws RocksDBException {
            UUID topicId = Uuids.fromProto(id);
            if (read(topics, StoreKeys.topic(topicId)) == null) {
                throw new InvalidMetadataRecordException("Record for unknown topic id " + topicId);
            }
            return topicId;
        }

        private PartitionRecord parsePartition(byte[] bytes) {
            try {
                return PartitionRecord.parseFrom(bytes);
            } catch (InvalidProtocolBufferException e) {
                throw new MetadataStoreException("Corrupt partition entry in " + directory, e);
            }
        }

        // Partitions written earlier in this batch must go too, so iterate the batch over the database.
        private void deletePartitions(UUID topicId) {
            byte[] end = StoreKeys.partitionsEnd(topicId);
            List<byte[]> keys = new ArrayList<>();
            try (RocksIterator base = db.newIterator(partitions, readOptions);
                 RocksIterator iterator = batch.newIteratorWithBase(partitions, base)) {
                for (iterator.seek(StoreKeys.partition(topicId, 0));
                     iterator.isValid() && Arrays.compareUnsigned(iterator.key(), end) < 0; iterator.next()) {
                    keys.add(iterator.key());
                }
            }
            for (byte[] key : keys) {
                try {
                    batch.delete(partitions, key);
                } catch (RocksDBException e) {
                    throw new MetadataStoreException("Cannot delete partition entry in " + directory, e);
                }
            }
        }
    }
}
