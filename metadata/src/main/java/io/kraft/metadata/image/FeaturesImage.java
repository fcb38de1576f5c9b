package io.kraft.metadata.image;

import io.kraft.metadata.MetadataRecords;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.MetadataRecord;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The finalized level of each cluster-wide feature (absent = level 0, off). */
public record FeaturesImage(Map<String, Integer> finalizedLevels) {
    public static final FeaturesImage EMPTY = new FeaturesImage(Map.of());
    /** Eligible leader replicas (KIP-966), with Kafka's name: level 1 turns them on. */
    public static final String ELIGIBLE_LEADER_REPLICAS = "eligible.leader.replicas.version";
    /** The metadata quorum's voters: 0 static ({@code controller.quorum.voters}), 1 dynamic (KIP-853). */
    public static final String KRAFT_VERSION = "kraft.version";

    public FeaturesImage {
        finalizedLevels = Map.copyOf(finalizedLevels);
    }

    public int level(String feature) {
        return finalizedLevels.getOrDefault(feature, 0);
    }

    /** Whether eligible leader replicas (KIP-966) are on: the ELR is kept and the high watermark waits for min ISR. */
    public boolean eligibleLeaderReplicasEnabled() {
        return level(ELIGIBLE_LEADER_REPLICAS) >= 1;
    }

    public List<MetadataRecord> toRecords() {
        return new TreeMap<>(finalizedLevels).entrySet().stream()
                .map(e -> MetadataRecords.of(FeatureLevelRecord.newBuilder()
                        .setName(e.getKey()).setLevel(e.getValue()).build()))
                .toList();
    }
}
