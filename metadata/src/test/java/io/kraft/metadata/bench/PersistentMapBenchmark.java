package io.kraft.metadata.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.organicdesign.fp.collections.PersistentHashMap;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;

/**
 * How the persistent-map libraries the image could share structure with compare at the image's sizes: a lookup by
 * topic id (the fetch path), replacing one entry (a delta touching one topic) and building the whole map at once (a
 * snapshot load), against the JDK's immutable map the image used to copy on every change. Kafka's images use
 * PCollections; Vavr and Paguro are HAMTs (Paguro's is Clojure's, with transient bulk building).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx4g")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class PersistentMapBenchmark {
    @Param({"100000"})
    public int size;

    private UUID[] keys;
    private Map<UUID, Object> jdk;
    private PMap<UUID, Object> pcollections;
    private io.vavr.collection.HashMap<UUID, Object> vavr;
    private PersistentHashMap<UUID, Object> paguro;
    private int next;

    @Setup
    public void setUp() {
        Random random = new Random(42);
        keys = new UUID[size];
        Map<UUID, Object> source = new HashMap<>();
        for (int i = 0; i < size; i++) {
            keys[i] = new UUID(random.nextLong(), random.nextLong());
            source.put(keys[i], Integer.valueOf(i));
        }
        jdk = Map.copyOf(source);
        pcollections = HashTreePMap.from(source);
        vavr = io.vavr.collection.HashMap.ofAll(source);
        paguro = PersistentHashMap.of(source.entrySet());
    }

    private UUID nextKey() {
        int i = next;
        next = i + 7919 >= size ? (i + 7919) - size : i + 7919;
        return keys[i];
    }

    @Benchmark
    public Object getJdk() {
        return jdk.get(nextKey());
    }

    @Benchmark
    public Object getPCollections() {
        return pcollections.get(nextKey());
    }

    @Benchmark
    public Object getVavr() {
        return vavr.get(nextKey()).getOrNull();
    }

    @Benchmark
    public Object getPaguro() {
        return paguro.get(nextKey());
    }

    @Benchmark
    public Object putPCollections() {
        return pcollections.plus(nextKey(), "x");
    }

    @Benchmark
    public Object putVavr() {
        return vavr.put(nextKey(), "x");
    }

    @Benchmark
    public Object putPaguro() {
        return paguro.assoc(nextKey(), "x");
    }

    /** What every change cost before: a copy of the whole map. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public Object putJdkCopy() {
        Map<UUID, Object> copy = new HashMap<>(jdk);
        copy.put(nextKey(), "x");
        return Map.copyOf(copy);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public Object buildPCollections() {
        PMap<UUID, Object> map = HashTreePMap.empty();
        for (UUID key : keys) {
            map = map.plus(key, key);
        }
        return map;
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public Object buildVavr() {
        io.vavr.collection.HashMap<UUID, Object> map = io.vavr.collection.HashMap.empty();
        for (UUID key : keys) {
            map = map.put(key, key);
        }
        return map;
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public Object buildPaguro() {
        PersistentHashMap.MutHashMap<UUID, Object> map = PersistentHashMap.emptyMutable();
        for (UUID key : keys) {
            map.assoc(key, key);
        }
        return map.immutable();
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public Object buildJdk() {
        Map<UUID, Object> map = new HashMap<>();
        for (UUID key : keys) {
            map.put(key, key);
        }
        return Map.copyOf(map);
    }
}
