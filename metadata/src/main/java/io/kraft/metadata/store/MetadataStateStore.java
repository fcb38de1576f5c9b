package io.kraft.metadata.store;

import com.google.protobuf.InvalidProtocolBufferException;
import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.metadata.image.TopicDelta;
import io.kraft.metadata.image.TopicsDelta;
import io.kraft.proto.metadata.AccessControlEntryRecord;
import io.kraft.proto.metadata.ClientQuotaRecord;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.ProducerIdsRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import io.kraft.proto.metadata.TopicRecord;
import io.kraft.proto.metadata.TransactionRecord;
import io.kraft.proto.metadata.UserScramCredentialRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The committed metadata state in RocksDB: one column family per kind of state (brokers, topics,
 * partitions, configs, producer ids, features, transactional ids, ACLs, SCRAM credentials, client quotas) holding
 * each entity's current state, plus the log
 * position (offset and epoch of the last applied record). A committed batch and its position are written
 * in one atomic write, so the store never reflects half a batch. {@link #checkpoint} copies the store as
 * a snapshot tagged with its position; a restart opens the latest checkpoint and replays the log after
 * {@link #appliedPosition()}. Not thread-safe: the metadata applier thread owns it.
 */
public final class MetadataStateStore implements AutoCloseable {
    static {
        RocksDbNativeLibrary.load();
    }

    /** Read-ahead of a whole-family scan (a snapshot load): a million partitions are tens of megabytes. */
    private static final long SCAN_READAHEAD_BYTES = 2 << 20;

    private static final String[] FAMILIES = {"meta", "brokers", "topics", "partitions", "configs", "features",
        "transactions", "acls", "scram", "client_quotas"};

    private final Path directory;
    private final boolean readOnly;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions familyOptions;
    private final List<ColumnFamilyHandle> handles;
    private final RocksDB db;
    /**
     * No write-ahead log: a node's store is rebuilt from snapshot and Raft log at every start (see
     * {@link RocksDbMetadataStorage}), so the WAL only doubled every write; a checkpoint flushes the memtables first
     * (RocksDB's default for a checkpoint) and a clean close flushes them too, so both stay complete.
     */
    private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);
    private final ColumnFamilyHandle meta;
    private final ColumnFamilyHandle brokers;
    private final ColumnFamilyHandle topics;
    private final ColumnFamilyHandle partitions;
    private final ColumnFamilyHandle configs;
    private final ColumnFamilyHandle features;
    /** Null in a read-only store written before transactions existed (it has none). */
    private final ColumnFamilyHandle transactions;
    /** Null in a read-only store written before ACLs existed (it has none). */
    private final ColumnFamilyHandle acls;
    /** Null in a read-only store written before SCRAM credentials existed (it has none). */
    private final ColumnFamilyHandle scram;
    /** Null in a read-only store written before client quotas existed (it has none). */
    private final ColumnFamilyHandle clientQuotas;
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
        this.transactions = handles.size() > 7 ? handles.get(7) : null;
        this.acls = handles.size() > 8 ? handles.get(8) : null;
        this.scram = family(handles, "scram");
        this.clientQuotas = family(handles, "client_quotas");
        byte[] position = get(meta, StoreKeys.APPLIED_POSITION);
        this.appliedPosition = position == null ? MetadataProvenance.EMPTY
                : new MetadataProvenance(ByteBuffer.wrap(position).getLong(), ByteBuffer.wrap(position).getInt(8));
    }

    /** The handle of a family by name, or null if this (read-only, older) store lacks it. */
    private static ColumnFamilyHandle family(List<ColumnFamilyHandle> handles, String name) {
        byte[] wanted = name.getBytes(StandardCharsets.UTF_8);
        try {
            for (ColumnFamilyHandle handle : handles) {
                if (java.util.Arrays.equals(handle.getName(), wanted)) {
                    return handle;
                }
            }
            return null;
        } catch (RocksDBException e) {
            throw new MetadataStoreException("Cannot read column family names: " + e.getMessage(), e);
        }
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
        List<String> existing = readOnly ? existingFamilies(dbOptions, directory) : List.of(FAMILIES);
        for (String family : FAMILIES) {
            if (!existing.contains(family)) {
                continue;
            }
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

    /** The column families a store holds (an older store lacks the newer ones; read-only opens skip them). */
    private static List<String> existingFamilies(DBOptions dbOptions, Path directory) {
        try (org.rocksdb.Options options = new org.rocksdb.Options(dbOptions, new ColumnFamilyOptions())) {
            return RocksDB.listColumnFamilies(options, directory.toString()).stream()
                    .map(name -> new String(name, StandardCharsets.UTF_8)).toList();
        } catch (RocksDBException e) {
            throw new MetadataStoreException("Cannot list the column families of the metadata state store in "
                    + directory + ": " + oneLine(e.getMessage()), e);
        }
    }

    /** The offset and epoch of the last record applied; {@link MetadataProvenance#EMPTY} for a new store. */
    public MetadataProvenance appliedPosition() {
        return appliedPosition;
    }

    /**
     * Persists what a delta changed (brokers, topics created and deleted, partitions, config keys, producer ids,
     * features) together with its position, in one atomic write. The store never interprets records itself: the
     * delta did, once, and the store writes the entities in their new state.
     *
     * @param delta a delta over exactly the state this store holds (its image is at {@link #appliedPosition()}) with
     *              at least one record replayed
     */
    public void apply(MetadataDelta delta) {
        try (EncodedDelta encoded = encode(delta)) {
            write(encoded);
        }
    }

    /**
     * A delta's changes as one RocksDB write, with the positions it goes from and to: what {@link #write} needs,
     * taken from the delta at once, so that the delta may change afterwards (a publisher queue folds later batches
     * into it) while the write waits for another thread.
     */
    public static final class EncodedDelta implements AutoCloseable {
        private final long baseOffset;
        private final MetadataProvenance position;
        private final WriteBatch batch;

        private EncodedDelta(long baseOffset, MetadataProvenance position, WriteBatch batch) {
            this.baseOffset = baseOffset;
            this.position = position;
            this.batch = batch;
        }

        /** The position the store is at once this is written. */
        public MetadataProvenance position() {
            return position;
        }

        @Override
        public void close() {
            batch.close();
        }
    }

    /**
     * Encodes what {@code delta} changed for {@link #write}; touches none of the store's state, so it may run on
     * another thread than the writes (not beside a {@link #close}).
     */
    public EncodedDelta encode(MetadataDelta delta) {
        checkWritable();
        WriteBatch batch = new WriteBatch();
        try {
            MetadataProvenance position = delta.provenance();
            encodeInto(delta, position, batch);
            return new EncodedDelta(delta.image().offset(), position, batch);
        } catch (RuntimeException e) {
            batch.close();
            throw e;
        }
    }

    /**
     * Writes an {@link #encode encoded} delta, which must go from exactly the position this store is at.
     *
     * @throws IllegalArgumentException if it does not follow the state stored so far (nothing is written)
     */
    public void write(EncodedDelta encoded) {
        checkWritable();
        MetadataProvenance position = encoded.position;
        if (position.offset() <= appliedPosition.offset()) {
            throw new IllegalArgumentException("Batch ending at offset " + position.offset()
                    + " is not after the applied offset " + appliedPosition.offset());
        }
        if (encoded.baseOffset != appliedPosition.offset()) {
            throw new IllegalArgumentException("A delta over offset " + encoded.baseOffset
                    + " cannot apply to the state store at offset " + appliedPosition.offset());
        }
        try {
            db.write(writeOptions, encoded.batch);
        } catch (RocksDBException e) {
            throw new MetadataStoreException("Cannot write metadata batch ending at offset " + position.offset()
                    + " to " + directory + ": " + e.getMessage(), e);
        }
        appliedPosition = position;
    }

    private void encodeInto(MetadataDelta delta, MetadataProvenance position, WriteBatch batch) {
        try {
            if (delta.hasClusterChanges()) {
                for (BrokerRegistration broker : delta.clusterDelta().changedBrokers().values()) {
                    batch.put(brokers, StoreKeys.broker(broker.id()),
                            broker.toRecord().getRegisterBroker().toByteArray());
                }
                for (int brokerId : delta.clusterDelta().removedBrokers()) {
                    batch.delete(brokers, StoreKeys.broker(brokerId));
                }
            }
            if (delta.hasTopicChanges()) {
                writeTopics(delta.topicsDelta(), batch);
            }
            if (delta.hasConfigChanges()) {
                for (var resource : delta.configsDelta().changes().entrySet()) {
                    for (var key : resource.getValue().entrySet()) {
                        byte[] storeKey = StoreKeys.config(resource.getKey(), key.getKey());
                        if (key.getValue().isPresent()) {
                            batch.put(configs, storeKey, StoreKeys.utf8(key.getValue().get()));
                        } else {
                            batch.delete(configs, storeKey);
                        }
                    }
                }
            }
            if (delta.hasProducerIdChanges()) {
                batch.put(meta, StoreKeys.NEXT_PRODUCER_ID, StoreKeys.int64(delta.producerIdsDelta().nextProducerId()));
            }
            if (delta.hasFeatureChanges()) {
                for (var feature : delta.featuresDelta().changes().entrySet()) {
                    if (feature.getValue() == 0) {
                        batch.delete(features, StoreKeys.utf8(feature.getKey()));
                    } else {
                        batch.put(features, StoreKeys.utf8(feature.getKey()), StoreKeys.int32(feature.getValue()));
                    }
                }
            }
            if (delta.hasTransactionChanges()) {
                for (var change : delta.transactionsDelta().changes().entrySet()) {
                    byte[] key = StoreKeys.utf8(change.getKey());
                    if (change.getValue() == null) {
                        batch.delete(transactions, key);
                    } else {
                        batch.put(transactions, key, change.getValue().toRecord().getTransaction().toByteArray());
                    }
                }
            }
            if (delta.hasAclChanges()) {
                for (var change : delta.aclsDelta().changes().entrySet()) {
                    byte[] key = StoreKeys.utf8(change.getKey().toString());
                    if (change.getValue() == null) {
                        batch.delete(acls, key);
                    } else {
                        batch.put(acls, key, change.getValue().toRecord(change.getKey()).toByteArray());
                    }
                }
            }
            if (delta.hasScramChanges()) {
                for (var change : delta.scramDelta().changes().entrySet()) {
                    // Key: mechanism byte, then the user name; the value is the record (its name is the key's).
                    byte[] key = StoreKeys.scram(change.getKey().mechanism().type(), change.getKey().user());
                    if (change.getValue() == null) {
                        batch.delete(scram, key);
                    } else {
                        batch.put(scram, key, change.getValue().toProto().toByteArray());
                    }
                }
            }
            if (delta.hasClientQuotaChanges()) {
                for (var change : delta.clientQuotasDelta().changes().entrySet()) {
                    var quota = change.getKey();
                    byte[] key = StoreKeys.utf8(quota.entity().key() + quota.key());
                    if (change.getValue() == null) {
                        batch.delete(clientQuotas, key);
                    } else {
                        batch.put(clientQuotas, key, ClientQuotaRecord.newBuilder()
                                .addAllEntity(quota.entity().toRecord()).setKey(quota.key())
                                .setValue(change.getValue()).build().toByteArray());
                    }
                }
            }
            batch.put(meta, StoreKeys.APPLIED_POSITION, StoreKeys.position(position.offset(), position.epoch()));
        } catch (RocksDBException e) {
            throw new MetadataStoreException("Cannot encode metadata batch ending at offset " + position.offset()
                    + " for " + directory + ": " + e.getMessage(), e);
        }
    }

    // Deleted topics go first: a topic deleted and created again with the same id in one delta is written anew.
    private void writeTopics(TopicsDelta topicsDelta, WriteBatch batch) throws RocksDBException {
        PartitionRecordEncoder encoder = new PartitionRecordEncoder();
        for (UUID deleted : topicsDelta.deletedTopicIds()) {
            batch.delete(topics, StoreKeys.topic(deleted));
            batch.deleteRange(partitions, StoreKeys.partition(deleted, 0), StoreKeys.partitionsEnd(deleted));
        }
        for (TopicDelta topic : topicsDelta.changedTopics().values()) {
            if (topicsDelta.createdTopicIds().contains(topic.id())) {
                batch.put(topics, StoreKeys.topic(topic.id()), TopicRecord.newBuilder().setName(topic.name())
                        .setTopicId(Uuids.toProto(topic.id())).build().toByteArray());
            }
            topic.partitionChanges().forEach((partitionId, partition) -> {
                try {
                    batch.put(partitions, StoreKeys.partition(topic.id(), partitionId),
                            encoder.encode(topic.id(), partitionId, partition));
                } catch (RocksDBException e) {
                    throw new MetadataStoreException("Cannot write partition " + partitionId + " of topic "
                            + topic.name() + " to " + directory + ": " + e.getMessage(), e);
                }
            });
        }
    }

    /**
     * Applies committed records (a tool's or a test's way in; nodes apply the loader's delta): replays them onto the
     * stored image and persists the result with {@link #apply(MetadataDelta)}.
     *
     * @param lastOffset the offset of the last record; must be after {@link #appliedPosition()}
     * @throws InvalidMetadataRecordException if a record cannot apply (nothing of the batch is written)
     */
    public void apply(List<MetadataRecord> records, long lastOffset, int epoch) {
        checkWritable();
        if (lastOffset <= appliedPosition.offset() || records.isEmpty()) {
            throw new IllegalArgumentException("Batch of " + records.size() + " records ending at offset " + lastOffset
                    + " is not after the applied offset " + appliedPosition.offset());
        }
        MetadataDelta delta = new MetadataDelta(loadImage());
        delta.replayBatch(records, lastOffset - records.size() + 1, epoch);
        apply(delta);
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
        List<MetadataRecord> records = recordsBeforeTopics();
        // All topics, then all partitions in one pass (not one iterator per topic): a topic still precedes its own.
        forEach(topics, (key, value) -> records.add(MetadataRecords.of(TopicRecord.parseFrom(value))));
        forEach(partitions, (key, value) -> records.add(MetadataRecords.of(PartitionRecord.parseFrom(value))));
        records.addAll(recordsBesideTopics());
        return records;
    }

    /**
     * The delta from the empty image to the state the store holds (what a loaded snapshot publishes), built in bulk:
     * each topic's partitions go straight from the store into its image ({@link BulkTopicsReader}), with no record
     * per partition and no persistent map version per partition. Apply it at {@link #appliedPosition()}.
     */
    public MetadataDelta snapshotDelta() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        List<MetadataRecord> records = recordsBeforeTopics();
        records.addAll(recordsBesideTopics());
        delta.replayBatch(records, 0, Math.max(1, appliedPosition.epoch()));
        // One sequential pass over each family: read ahead, and keep the blocks out of the block cache (none is
        // read twice; caching them only evicts and copies).
        try (ReadOptions scan = new ReadOptions().setFillCache(false).setReadaheadSize(SCAN_READAHEAD_BYTES);
             RocksIterator topicIterator = db.newIterator(topics, scan);
             RocksIterator partitionIterator = db.newIterator(partitions, scan)) {
            BulkTopicsReader.read(topicIterator, partitionIterator, delta.topicsDelta()::addWholeTopic);
        } catch (InvalidProtocolBufferException e) {
            throw new MetadataStoreException("Corrupt entry in the metadata state store in " + directory + ": "
                    + e.getMessage(), e);
        }
        return delta;
    }

    /** The features' and brokers' records, which come first in a snapshot. */
    private List<MetadataRecord> recordsBeforeTopics() {
        List<MetadataRecord> records = new ArrayList<>();
        forEach(features, (key, value) -> records.add(MetadataRecords.of(FeatureLevelRecord.newBuilder()
                .setName(StoreKeys.string(key)).setLevel(StoreKeys.int32(value)).build())));
        forEach(brokers, (key, value) -> records.add(MetadataRecords.of(RegisterBrokerRecord.parseFrom(value))));
        return records;
    }

    /** The records of everything but features, brokers, topics and partitions, in snapshot order. */
    private List<MetadataRecord> recordsBesideTopics() {
        List<MetadataRecord> records = new ArrayList<>();
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
        if (transactions != null) {
            forEach(transactions, (key, value) -> records.add(MetadataRecords.of(TransactionRecord.parseFrom(value))));
        }
        if (acls != null) {
            forEach(acls, (key, value) -> records.add(MetadataRecords.of(AccessControlEntryRecord.parseFrom(value))));
        }
        if (scram != null) {
            forEach(scram, (key, value) -> records.add(MetadataRecords.of(UserScramCredentialRecord.parseFrom(value))));
        }
        if (clientQuotas != null) {
            forEach(clientQuotas, (key, value) -> records.add(MetadataRecords.of(ClientQuotaRecord.parseFrom(value))));
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
}
