package io.kraft.metadata.image;

import java.util.Map;
import org.organicdesign.fp.collections.PersistentHashMap;

/**
 * The image's maps: Paguro's persistent hash maps (hash array mapped tries), which share structure between versions,
 * so the next image after a delta costs what the delta changed, not what the image holds. They implement
 * {@link Map} read-only, so readers see plain maps. Building goes through a transient copy (edited in place, then
 * frozen), so a delta with many changes, or a snapshot load, does not make one intermediate map per entry.
 */
final class PersistentMaps {
    private PersistentMaps() {
    }

    /** An empty map. */
    static <K, V> Map<K, V> empty() {
        return PersistentHashMap.empty();
    }

    /** Whether {@code map} is one of these maps (so it is immutable and {@link #of} keeps it). */
    static boolean isPersistent(Map<?, ?> map) {
        return map instanceof PersistentHashMap;
    }

    /** {@code map} itself if it is persistent already (no copy), else a persistent copy of it. */
    static <K, V> Map<K, V> of(Map<K, V> map) {
        if (map instanceof PersistentHashMap<K, V> persistent) {
            return persistent;
        }
        PersistentHashMap.MutHashMap<K, V> builder = PersistentHashMap.emptyMutable();
        map.forEach(builder::assoc);
        return builder.immutable();
    }

    /** Edits on top of a persistent map; {@link #build} gives the new version, sharing whatever was not edited. */
    static final class Builder<K, V> {
        private final PersistentHashMap.MutHashMap<K, V> edits;

        Builder(Map<K, V> base) {
            this.edits = ((PersistentHashMap<K, V>) of(base)).mutable();
        }

        Builder<K, V> put(K key, V value) {
            edits.assoc(key, value);
            return this;
        }

        Builder<K, V> remove(K key) {
            edits.without(key);
            return this;
        }

        Map<K, V> build() {
            return edits.immutable();
        }
    }

    /** A builder over {@code base} (persistent: the result shares its unchanged parts). */
    static <K, V> Builder<K, V> edit(Map<K, V> base) {
        return new Builder<>(base);
    }
}
