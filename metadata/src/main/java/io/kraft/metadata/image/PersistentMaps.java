package io.kraft.metadata.image;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import org.organicdesign.fp.collections.PersistentHashMap;
import org.organicdesign.fp.collections.UnmodMap;

/**
 * The image's maps: Paguro's persistent hash maps (hash array mapped tries), which share structure between versions,
 * so the next image after a delta costs what the delta changed, not what the image holds. Readers see them as plain
 * read-only {@link Map}s ({@link Persistent}). Building goes through a transient copy (edited in place, then
 * frozen), so a delta with many changes, or a snapshot load, does not make one intermediate map per entry.
 */
final class PersistentMaps {
    private static final Persistent<?, ?> EMPTY = new Persistent<>(PersistentHashMap.empty());

    private PersistentMaps() {
    }

    /** An empty map. */
    @SuppressWarnings("unchecked")
    static <K, V> Map<K, V> empty() {
        return (Map<K, V>) EMPTY;
    }

    /** Whether {@code map} is one of these maps (so it is immutable and {@link #of} keeps it). */
    static boolean isPersistent(Map<?, ?> map) {
        return map instanceof Persistent;
    }

    /** {@code map} itself if it is persistent already (no copy), else a persistent copy of it. */
    static <K, V> Map<K, V> of(Map<K, V> map) {
        if (map instanceof Persistent<K, V> persistent) {
            return persistent;
        }
        PersistentHashMap.MutHashMap<K, V> builder = PersistentHashMap.emptyMutable();
        map.forEach(builder::assoc);
        return new Persistent<>(builder.immutable());
    }

    /** Edits on top of a persistent map; {@link #build} gives the new version, sharing whatever was not edited. */
    static final class Builder<K, V> {
        private final PersistentHashMap.MutHashMap<K, V> edits;

        Builder(Map<K, V> base) {
            this.edits = ((Persistent<K, V>) of(base)).map.mutable();
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
            return new Persistent<>(edits.immutable());
        }
    }

    /** A builder over {@code base} (persistent: the result shares its unchanged parts). */
    static <K, V> Builder<K, V> edit(Map<K, V> base) {
        return new Builder<>(base);
    }

    /**
     * A persistent map as a read-only {@link Map} whose views walk the trie. Paguro's own {@code entrySet()} and
     * {@code keySet()} (and so {@code Map.forEach}) copy every entry into a new hash set first: at a million
     * partitions that made each pass over the image cost a million hash insertions.
     */
    static final class Persistent<K, V> extends AbstractMap<K, V> {
        private final PersistentHashMap<K, V> map;

        Persistent(PersistentHashMap<K, V> map) {
            this.map = Objects.requireNonNull(map, "map");
        }

        @Override
        public int size() {
            return map.size();
        }

        @Override
        public boolean containsKey(Object key) {
            return map.containsKey(key);
        }

        @Override
        public V get(Object key) {
            return map.get(key);
        }

        @Override
        public void forEach(BiConsumer<? super K, ? super V> action) {
            Iterator<UnmodMap.UnEntry<K, V>> entries = map.iterator();
            while (entries.hasNext()) {
                UnmodMap.UnEntry<K, V> entry = entries.next();
                action.accept(entry.getKey(), entry.getValue());
            }
        }

        @Override
        public Set<Entry<K, V>> entrySet() {
            return new AbstractSet<>() {
                @Override
                @SuppressWarnings({"unchecked", "rawtypes"})
                public Iterator<Entry<K, V>> iterator() {
                    return (Iterator) map.iterator();
                }

                @Override
                public int size() {
                    return map.size();
                }

                @Override
                public boolean contains(Object o) {
                    return o instanceof Entry<?, ?> entry && map.containsKey(entry.getKey())
                            && Objects.equals(map.get(entry.getKey()), entry.getValue());
                }
            };
        }
    }
}
