package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.FeaturesImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;

/**
 * Finalized levels of cluster-wide features, limited to the levels this controller supports; the current levels are
 * read from the {@link SpeculativeMetadata}.
 */
public final class FeatureControlManager {
    /** The levels of one feature this controller can run with (0 = off is always allowed). */
    public record SupportedRange(int minLevel, int maxLevel) {
        public SupportedRange {
            if (minLevel < 1 || maxLevel < minLevel) {
                throw new IllegalArgumentException("Invalid supported range " + minLevel + ".." + maxLevel);
            }
        }
    }

    private final Map<String, SupportedRange> supported;
    private final SpeculativeMetadata metadata;

    FeatureControlManager(Map<String, SupportedRange> supported, SpeculativeMetadata metadata) {
        this.supported = Map.copyOf(supported);
        this.metadata = metadata;
    }

    /** Generates the record setting a feature's level (0 turns it off). */
    public ControllerResult<Void> updateFeature(String name, int level) {
        SupportedRange range = supported.get(name);
        if (range == null) {
            return ControllerResult.failed(Errors.INVALID_UPDATE_VERSION, "Feature " + name + " is not supported");
        }
        if (level != 0 && (level < range.minLevel() || level > range.maxLevel())) {
            return ControllerResult.failed(Errors.INVALID_UPDATE_VERSION, "Level " + level + " of feature " + name
                    + " is outside the supported " + range.minLevel() + ".." + range.maxLevel());
        }
        if (level == metadata.featureLevel(name)) {
            return ControllerResult.of(List.of(), null);
        }
        return ControllerResult.of(List.of(MetadataRecords.of(FeatureLevelRecord.newBuilder()
                .setName(name).setLevel(level).build())), null);
    }

    public int level(String name) {
        return metadata.featureLevel(name);
    }

    public FeaturesImage image() {
        return metadata.image(MetadataProvenance.EMPTY).features();
    }
}
