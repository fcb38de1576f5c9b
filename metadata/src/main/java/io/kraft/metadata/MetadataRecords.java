package io.kraft.metadata;

import io.kraft.proto.metadata.AccessControlEntryRecord;
import io.kraft.proto.metadata.BrokerRegistrationChangeRecord;
import io.kraft.proto.metadata.ClientQuotaRecord;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.FenceBrokerRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.ProducerIdsRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import io.kraft.proto.metadata.RemoveAccessControlEntryRecord;
import io.kraft.proto.metadata.RemoveTopicRecord;
import io.kraft.proto.metadata.RemoveTransactionRecord;
import io.kraft.proto.metadata.RemoveUserScramCredentialRecord;
import io.kraft.proto.metadata.TopicRecord;
import io.kraft.proto.metadata.TransactionRecord;
import io.kraft.proto.metadata.UnfenceBrokerRecord;
import io.kraft.proto.metadata.UnregisterBrokerRecord;
import io.kraft.proto.metadata.UserScramCredentialRecord;

/** Wraps record types in the versioned {@link MetadataRecord} envelope and checks versions on replay. */
public final class MetadataRecords {
    /** The version this code writes and the highest it reads, for every record type. */
    public static final int CURRENT_VERSION = 1;

    private MetadataRecords() {
    }

    /**
     * Checks that a record can be replayed by this code.
     *
     * @throws InvalidMetadataRecordException if the record has no payload or a version this code does not know
     */
    public static MetadataRecord.RecordCase checkReadable(MetadataRecord record) {
        if (record.getRecordCase() == MetadataRecord.RecordCase.RECORD_NOT_SET) {
            throw new InvalidMetadataRecordException("Metadata record without a known record type");
        }
        if (record.getVersion() < 1 || record.getVersion() > CURRENT_VERSION) {
            throw new InvalidMetadataRecordException("Unsupported version " + record.getVersion() + " of "
                    + record.getRecordCase() + " record; this node reads versions 1 to " + CURRENT_VERSION);
        }
        return record.getRecordCase();
    }

    private static MetadataRecord.Builder envelope() {
        return MetadataRecord.newBuilder().setVersion(CURRENT_VERSION);
    }

    public static MetadataRecord of(RegisterBrokerRecord record) {
        return envelope().setRegisterBroker(record).build();
    }

    public static MetadataRecord of(BrokerRegistrationChangeRecord record) {
        return envelope().setBrokerRegistrationChange(record).build();
    }

    public static MetadataRecord of(FenceBrokerRecord record) {
        return envelope().setFenceBroker(record).build();
    }

    public static MetadataRecord of(UnfenceBrokerRecord record) {
        return envelope().setUnfenceBroker(record).build();
    }

    public static MetadataRecord of(TopicRecord record) {
        return envelope().setTopic(record).build();
    }

    public static MetadataRecord of(PartitionRecord record) {
        return envelope().setPartition(record).build();
    }

    public static MetadataRecord of(PartitionChangeRecord record) {
        return envelope().setPartitionChange(record).build();
    }

    public static MetadataRecord of(RemoveTopicRecord record) {
        return envelope().setRemoveTopic(record).build();
    }

    public static MetadataRecord of(ConfigRecord record) {
        return envelope().setConfig(record).build();
    }

    public static MetadataRecord of(ProducerIdsRecord record) {
        return envelope().setProducerIds(record).build();
    }

    public static MetadataRecord of(FeatureLevelRecord record) {
        return envelope().setFeatureLevel(record).build();
    }

    public static MetadataRecord of(TransactionRecord record) {
        return envelope().setTransaction(record).build();
    }

    public static MetadataRecord of(RemoveTransactionRecord record) {
        return envelope().setRemoveTransaction(record).build();
    }

    public static MetadataRecord of(AccessControlEntryRecord record) {
        return envelope().setAccessControlEntry(record).build();
    }

    public static MetadataRecord of(RemoveAccessControlEntryRecord record) {
        return envelope().setRemoveAccessControlEntry(record).build();
    }

    public static MetadataRecord of(UserScramCredentialRecord record) {
        return envelope().setUserScramCredential(record).build();
    }

    public static MetadataRecord of(RemoveUserScramCredentialRecord record) {
        return envelope().setRemoveUserScramCredential(record).build();
    }

    public static MetadataRecord of(ClientQuotaRecord record) {
        return envelope().setClientQuota(record).build();
    }

    public static MetadataRecord of(UnregisterBrokerRecord record) {
        return envelope().setUnregisterBroker(record).build();
    }
}
