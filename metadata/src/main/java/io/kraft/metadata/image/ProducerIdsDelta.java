package io.kraft.metadata.image;

import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.proto.metadata.ProducerIdsRecord;

/** A producer id block allocation on top of a {@link ProducerIdsImage}. */
public final class ProducerIdsDelta {
    private final ProducerIdsImage image;
    private long nextProducerId;

    public ProducerIdsDelta(ProducerIdsImage image) {
        this.image = image;
        this.nextProducerId = image.nextProducerId();
    }

    public long nextProducerId() {
        return nextProducerId;
    }

    public void replay(ProducerIdsRecord record) {
        // Ids must never be handed out twice, so the high-water mark may only grow.
        if (record.getNextProducerId() < nextProducerId) {
            throw new InvalidMetadataRecordException("Producer ids record moves the next producer id back from "
                    + nextProducerId + " to " + record.getNextProducerId());
        }
        nextProducerId = record.getNextProducerId();
    }

    public ProducerIdsImage apply() {
        return nextProducerId == image.nextProducerId() ? image : new ProducerIdsImage(nextProducerId);
    }
}
