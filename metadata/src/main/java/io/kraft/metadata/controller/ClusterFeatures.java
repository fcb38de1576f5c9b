package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.image.FeaturesImage;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.MetadataRecord;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster-wide features this build knows: the levels its controllers accept, and the levels {@code format}
 * finalizes for a new cluster (as Kafka 4.x's {@code kafka-storage format} does, each overridable with
 * {@code --feature name=level}). One entry per line, so features added side by side merge cleanly.
 */
public final class ClusterFeatures {
    public static final String METADATA_VERSION = "metadata.version";
    /** The transaction protocol version: 2 is KIP-890 part 2 (an epoch bump per transaction, implicit adds). */
    public static final String TRANSACTION_VERSION = "transaction.version";
    /** The group coordinator's protocols: 1 adds KIP-848's consumer protocol (Kafka 4's default for a new cluster). */
    public static final String GROUP_VERSION = "group.version";
    /** Eligible leader replicas (KIP-966). */
    public static final String ELIGIBLE_LEADER_REPLICAS_VERSION = FeaturesImage.ELIGIBLE_LEADER_REPLICAS;
    /**
     * The metadata quorum's voters (KIP-853): 0 static, 1 dynamic. {@code format} finalizes 1 when it writes a
     * bootstrap voter set; UpdateFeatures cannot change it, since the voters' own history (raft) decides.
     */
    public static final String KRAFT_VERSION = FeaturesImage.KRAFT_VERSION;

    /** The levels a controller of this build can run with (0 = off is always allowed). */
    public static final Map<String, SupportedRange> SUPPORTED = Map.ofEntries(
            Map.entry(METADATA_VERSION, new SupportedRange(1, 3)),
            Map.entry(ELIGIBLE_LEADER_REPLICAS_VERSION, new SupportedRange(1, 1)),
            Map.entry(GROUP_VERSION, new SupportedRange(1, 1)),
            Map.entry(KRAFT_VERSION, new SupportedRange(1, 1)),
            Map.entry(TRANSACTION_VERSION, new SupportedRange(1, 2)));

    /** The levels a new cluster starts with (Kafka 4.x's defaults for a new cluster). */
    public static final Map<String, Integer> FORMAT_DEFAULTS = Map.ofEntries(
            Map.entry(ELIGIBLE_LEADER_REPLICAS_VERSION, 1),
            Map.entry(GROUP_VERSION, 1),
            Map.entry(TRANSACTION_VERSION, 2));

    private ClusterFeatures() {
    }

    /** The bootstrap records finalizing {@code levels} (name to level) in a new cluster, by name. */
    public static List<MetadataRecord> levelRecords(Map<String, Integer> levels) {
        return new TreeMap<>(levels).entrySet().stream().map(e -> MetadataRecords.of(FeatureLevelRecord.newBuilder()
                .setName(e.getKey()).setLevel(e.getValue()).build())).toList();
    }
}
