package io.kraft.metadata.image;

import io.kraft.metadata.MetadataRecords;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.ProducerIdsRecord;
import java.util.List;

/** The next producer id the controller will hand out; every id below it is taken. */
public record ProducerIdsImage(long nextProducerId) {
    public static final ProducerIdsImage EMPTY = new ProducerIdsImage(0L);

    /** A record restoring this state (broker -1: not tied to a broker), or none for the empty image. */
    public List<MetadataRecord> toRecords() {
        if (nextProducerId == 0L) {
            return List.of();
        }
        return List.of(MetadataRecords.of(ProducerIdsRecord.newBuilder()
                .setBrokerId(-1).setBrokerEpoch(-1).setNextProducerId(nextProducerId).build()));
    }
}
