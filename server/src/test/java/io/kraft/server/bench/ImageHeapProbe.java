package io.kraft.server.bench;

import io.kraft.metadata.controller.ControlManagers;
import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.metadata.loader.MetadataLoader;
import io.kraft.metadata.loader.PublisherQueue;
import io.kraft.metadata.loop.SingleThreadEventLoop;
import io.kraft.metadata.loop.Time;
import io.kraft.metadata.store.RocksDbMetadataStorage;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileSnapshotStore;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.nio.file.Path;
import java.util.Map;

/**
 * Prints the live heap a controller's image and its managers' indexes take, loaded from a snapshot in a JVM of its
 * own: in the benchmark's JVM the three running controllers' heaps move between two readings by more than that.
 * Arguments: the snapshot store's directory, the snapshot's id ({@code <endOffset>-<epoch>}), an empty state directory.
 */
public final class ImageHeapProbe {
    private static final FaultHandler FAULTS = (message, cause) -> {
        throw new IllegalStateException(message, cause);
    };

    private ImageHeapProbe() {
    }

    public static void main(String[] args) throws Exception {
        FileSnapshotStore snapshots = FileSnapshotStore.open(Path.of(args[0]));
        SnapshotId id = SnapshotId.parse(args[1]);
        long before = liveHeapBytes();
        try (SingleThreadEventLoop publishing = new SingleThreadEventLoop("probe-publisher");
             MetadataLoader loader = new MetadataLoader("probe", new RocksDbMetadataStorage(Path.of(args[2]),
                     snapshots), SnapshotPolicy.from(Map.of()), Time.SYSTEM,
                     new PublisherQueue("probe", publishing, FAULTS))) {
            loader.loadSnapshot(id);
            ControlManagers managers = ControlManagers.fromImage(loader.image(), ControllerBenchmark.settings(),
                    ControllerBenchmark.topicConfigs(), Map.of(), new java.util.Random(1));
            long holding = liveHeapBytes();
            Reference.reachabilityFence(managers);
            System.out.println(holding - before);
        }
    }

    /** The heap in use after full collections (the lowest of three readings). */
    static long liveHeapBytes() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
