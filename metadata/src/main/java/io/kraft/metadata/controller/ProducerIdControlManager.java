package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.ProducerIdsImage;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.ProducerIdsRecord;
import io.kraft.storage.errors.Errors;
import java.util.List;

/**
 * Hands out producer ids in blocks of {@link #BLOCK_SIZE} to brokers; an id is never handed out twice. The next free
 * id is read from the {@link SpeculativeMetadata}.
 */
public final class ProducerIdControlManager {
    public static final int BLOCK_SIZE = 1000;

    private final SpeculativeMetadata metadata;
    private final BrokerLiveness brokers;

    ProducerIdControlManager(SpeculativeMetadata metadata, BrokerLiveness brokers) {
        this.metadata = metadata;
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
        long nextProducerId = metadata.nextProducerId();
        if (nextProducerId > Long.MAX_VALUE - BLOCK_SIZE) {
            return ControllerResult.failed(Errors.UNKNOWN_SERVER_ERROR, "Producer ids are exhausted");
        }
        ProducerIdBlock block = new ProducerIdBlock(brokerId, nextProducerId, BLOCK_SIZE);
        return ControllerResult.of(List.of(MetadataRecords.of(ProducerIdsRecord.newBuilder()
                .setBrokerId(brokerId).setBrokerEpoch(brokerEpoch).setNextProducerId(nextProducerId + BLOCK_SIZE)
                .build())), block);
    }

    public long nextProducerId() {
        return metadata.nextProducerId();
    }

    public ProducerIdsImage image() {
        return new ProducerIdsImage(metadata.nextProducerId());
    }
}
