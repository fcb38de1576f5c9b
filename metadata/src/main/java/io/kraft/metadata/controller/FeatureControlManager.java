package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.FeaturesImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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

    /** One feature's requested level; a level below the finalized one needs {@code allowDowngrade}. */
    public record FeatureUpdate(int level, boolean allowDowngrade) {
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

    /**
     * UpdateFeatures: each feature's result (INVALID_UPDATE_VERSION for an unknown feature, a level outside the
     * supported range, or a downgrade not asked for); the records of all of them, or of none when one is refused or
     * {@code validateOnly}.
     */
    public ControllerResult<Map<String, ApiError>> updateFeatures(Map<String, FeatureUpdate> updates,
                                                                  boolean validateOnly) {
        Map<String, ApiError> results = new TreeMap<>();
        List<MetadataRecord> records = new ArrayList<>();
        boolean refused = false;
        for (Map.Entry<String, FeatureUpdate> entry : new TreeMap<>(updates).entrySet()) {
            String name = entry.getKey();
            FeatureUpdate update = entry.getValue();
            ControllerResult<Void> one = updateFeature(name, update.level());
            int current = metadata.featureLevel(name);
            if (one.isSuccess() && name.equals(ClusterFeatures.KRAFT_VERSION) && update.level() != current) {
                // The voters' own history decides whether they may change; a record here would not change it.
                one = ControllerResult.failed(Errors.INVALID_UPDATE_VERSION, "Feature " + name
                        + " is set when the controllers are formatted (" + current + " here) and cannot change");
            } else if (one.isSuccess() && update.level() < current && !update.allowDowngrade()) {
                one = ControllerResult.failed(Errors.INVALID_UPDATE_VERSION, "Level " + update.level()
                        + " of feature " + name + " is below its finalized level " + current
                        + ": a downgrade must be asked for");
            }
            results.put(name, one.isSuccess() ? ApiError.NONE : one.error());
            refused |= !one.isSuccess();
            records.addAll(one.records());
        }
        return ControllerResult.of(refused || validateOnly ? List.of() : records, results);
    }

    public int level(String name) {
        return metadata.featureLevel(name);
    }

    public FeaturesImage image() {
        return metadata.image(MetadataProvenance.EMPTY).features();
    }
}
