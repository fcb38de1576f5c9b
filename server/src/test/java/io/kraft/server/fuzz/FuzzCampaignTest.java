package io.kraft.server.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.network.LeakRecorder;
import io.kraft.broker.network.MemorySampler;
import io.kraft.broker.protocol.FuzzFrames;
import io.kraft.server.TestNode;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fuzzing campaign against a real combined node (Raft, controller, broker): structure-aware Kafka request
 * frames for every API and version the broker accepts (hostile values, mutated and truncated frames, random bytes,
 * broken record batches and compression bombs in produce requests) on a few connections, and random Raft and
 * controller RPCs on the CONTROLLER listener, while a kafka-clients producer and consumer work beside them.
 * Afterwards: no handler failed on any input (no UNKNOWN_SERVER_ERROR), no thread died, no buffer leaked (Netty's detection at PARANOID, both Netty copies), the heap holds
 * nothing the fuzzing left behind, and every record the producer had acknowledged was read exactly once.
 *
 * <p>{@code -Dkraft.fuzz.frames=N} sets the number of frames (10,000 in the normal build, 1,000,000 with
 * {@code -Pfuzz}); {@code -Dkraft.seed=N} replays a campaign.
 */
class FuzzCampaignTest {
    private static final int WIRE_THREADS = 2;
    /** Threads that must outlive any input: the Raft core, the controller, the handlers, the purgatory timer. */
    private static final List<String> CORE_THREAD_PREFIXES = List.of("raft-node-", "quorum-controller-",
            "kraft-request-handler-", "kraft-purgatory-timer-", "metadata-publisher-");

    @TempDir
    Path dir;

    @Test
    void fuzzedInputLeavesTheNodeServingWithoutLeaksOrDeadThreadsAndTheSteadyClientsLoseNothing() throws Exception {
        long frames = Long.getLong("kraft.fuzz.frames", 10_000);
        long seed = Long.getLong("kraft.seed", System.nanoTime());
        String replay = " [replay: -Dkraft.seed=" + seed + " -Dkraft.fuzz.frames=" + frames + "]";
        LeakRecorder leaks = new LeakRecorder();
        ConcurrentLinkedQueue<String> deaths = new ConcurrentLinkedQueue<>();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> deaths.add(thread.getName() + ": " + e));
        try (ServerErrorCounter serverErrors = new ServerErrorCounter();
             TestNode node = new TestNode(dir, Map.of()).start()) {
            node.createTopic("steady", 3, Map.of());
            Set<String> coreThreads = coreThreads();
            long start = System.nanoTime();
            List<WireFuzzer> wires = new ArrayList<>();
            long grpcSent;
            long grpcAnswered;
            try (SteadyClients steady = new SteadyClients(node.bootstrap(), "steady", 3);
                 MemorySampler memory = new MemorySampler()) {
                steady.start();
                ExecutorService fuzzers = Executors.newFixedThreadPool(WIRE_THREADS + 1);
                List<Future<?>> running = new ArrayList<>();
                for (int t = 0; t < WIRE_THREADS; t++) {
                    WireFuzzer wire = new WireFuzzer(new InetSocketAddress("127.0.0.1", node.port()),
                            new Random(seed + t));
                    wires.add(wire);
                    running.add(fuzzers.submit(() -> {
                        for (long i = 0; i < frames / WIRE_THREADS; i++) {
                            wire.sendOne();
                        }
                        wire.close();
                        return null;
                    }));
                }
                GrpcFuzzer grpc = new GrpcFuzzer("127.0.0.1", node.controllerPort(), TestNode.CLUSTER_ID,
                        new Random(seed - 1));
                running.add(fuzzers.submit(() -> {
                    for (long i = 0; i < Math.max(100, frames / 20); i++) {
                        grpc.sendOne();
                    }
                    return null;
                }));
                for (Future<?> fuzzer : running) {
                    fuzzer.get(2, TimeUnit.HOURS);
                }
                fuzzers.shutdown();
                grpc.close();
                grpcSent = grpc.sent();
                grpcAnswered = grpc.answered();
                steady.finish(120_000);
                long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
                Map<FuzzFrames.Kind, Long> byKind = new EnumMap<>(FuzzFrames.Kind.class);
                long connections = 0;
                long stalls = 0;
                for (WireFuzzer wire : wires) {
                    wire.sentByKind().forEach((kind, n) -> byKind.merge(kind, n, Long::sum));
                    connections += wire.connections();
                    stalls += wire.stalls();
                }
                System.out.printf("fuzz campaign: %d Kafka frames over %d API/version pairs %s on %d connections"
                                + " (%d stalled by back-pressure), %d Raft/controller RPCs (%d answered) in %d s;"
                                + " steady producer %d sent, %d acknowledged, %d unread, %d duplicates%n%s%n",
                        frames, wires.get(0).cases(), byKind, connections, stalls, grpcSent, grpcAnswered, seconds,
                        steady.sent(), steady.acked(), steady.missing(), steady.duplicates(),
                        memory.report("fuzz campaign" + replay));
                assertEquals(List.of(), steady.failures(), "the steady producer's sends failed" + replay);
                assertTrue(steady.acked() > 0, "the steady producer got nothing acknowledged" + replay);
                assertEquals(0, steady.missing(), "acknowledged records were never read" + replay);
                assertEquals(0, steady.duplicates(), "records were read twice" + replay);
            }
            assertEquals(List.of(), List.copyOf(deaths), "threads died" + replay);
            assertEquals(List.of(), serverErrors.failures(), "hostile input broke a handler" + replay);
            Set<String> afterwards = coreThreads();
            assertTrue(afterwards.containsAll(coreThreads), "core threads are gone: " + coreThreads + " then "
                    + afterwards + replay);
            assertEquals(List.of(), leaks.collect(), "buffers leaked" + replay);
            System.gc();
            long heapAfter = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
            assertTrue(heapAfter < 384L << 20, "the heap holds " + (heapAfter >> 20) + " MiB after the campaign"
                    + replay);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }

    private static Set<String> coreThreads() {
        Set<String> names = new TreeSet<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            for (String prefix : CORE_THREAD_PREFIXES) {
                if (thread.getName().startsWith(prefix) && thread.isAlive()) {
                    names.add(thread.getName());
                }
            }
        }
        return names;
    }
}
