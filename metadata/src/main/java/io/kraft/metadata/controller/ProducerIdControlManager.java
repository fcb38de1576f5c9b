package io.kraft.metadata.controller;

import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.ProducerIdsImage;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.ProducerIdsRecord;
import io.kraft.storage.errors.Errors;
import java.util.List;

/** Hands out producer ids in blocks of {@link #BLOCK_SIZE} to brokers; an id is never handed out twice. */
public final class ProducerIdControlManager {
    public static final int BLOCK_SIZE = 1000;

    private final BrokerLiveness brokers;
    private long nextProducerId = 0;

    public ProducerIdControlManager(BrokerLiveness brokers) {
        this.brokers = brokers;
    }

    /** Generates the allocation of the next block to a registered broker with its current epoch. */
    public ControllerResult<ProducerIdBlock> allocateBlock(int brokerId, long brokerEpoch) {
        long currentEpoch = brokers.brokerEpoch(brokerId);
        if (currentEpoch == -1) {
            return ControllerResult.failed(Errors.BROKER_ID_NOT_REGISTERED, "Broker " + brokerId + " is not registered");
        }
        if (currentEpoch != brokerEpoch) {
            return ControllerResult.failed(Errors.STALE_BROKER_EPOCH, "Broker " + brokerId + " sent epoch "
                    + brokerEpoch + " but its registration has epoch " + currentEpoch);
        }
        if (nextProducerId > Long.MAX_VALUE - BLOCK_SIZE) {
            return ControllerResult.failed(Errors.UNKNOWN_SERVER_ERROR, "Producer ids are exhausted");
        }
        ProducerIdBlock block = new ProducerIdBlock(brokerId, nextProducerId, BLOCK_SIZE);
        return ControllerResult.of(List.of(MetadataRecords.of(ProducerIdsRecord.newBuilder()
                .setBrokerId(brokerId).setBrokerEpoch(brokerEpoch).setNextProducerId(nextProducerId + BLOCK_SIZE)
                .build())), block);
    }

    /** Applies a producer ids record. */
    public void replay(MetadataRecord record) {
        if (!record.hasProducerIds()) {
            throw new IllegalArgumentException("Not a producer ids record: " + record.getRecordCase());
        }
        long next = record.getProducerIds().getNextProducerId();
        if (next < nextProducerId) {
            throw new InvalidMetadataRecordException("Producer ids record moves the next producer id back from "
                    + nextProducerId + " to " + next);
        }
        nextProducerId = next;
    }

    public long nextProducerId() {
        return nextProducerId;
    }

    public ProducerIdsImage image() {
        return new ProducerIdsImage(nextProducerId);
    }
}
