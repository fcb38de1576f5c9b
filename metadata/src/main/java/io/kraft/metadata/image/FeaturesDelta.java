package io.kraft.metadata.image;

import io.kraft.proto.metadata.FeatureLevelRecord;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/** Feature level changes on top of a {@link FeaturesImage}; level 0 removes a feature. */
public final class FeaturesDelta {
    private final FeaturesImage image;
    private final Map<String, Integer> changes = new HashMap<>();

    public FeaturesDelta(FeaturesImage image) {
        this.image = image;
    }

    /** Features changed in this delta with their new level (0 = removed). */
    public Map<String, Integer> changes() {
        return Collections.unmodifiableMap(changes);
    }

    /** The feature's level including this delta's changes (0 = off). */
    public int level(String name) {
        Integer changed = changes.get(name);
        return changed != null ? changed : image.level(name);
    }

    public void replay(FeatureLevelRecord record) {
        changes.put(record.getName(), record.getLevel());
    }

    public FeaturesImage apply() {
        if (changes.isEmpty()) {
            return image;
        }
        Map<String, Integer> levels = new HashMap<>(image.finalizedLevels());
        changes.forEach((name, level) -> {
            if (level == 0) {
                levels.remove(name);
            } else {
                levels.put(name, level);
            }
        });
        return new FeaturesImage(levels);
    }
}
