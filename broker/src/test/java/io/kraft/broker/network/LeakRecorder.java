package io.kraft.broker.network;

import io.netty.util.ResourceLeakDetector;
import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Puts Netty's buffer leak detection at PARANOID (every buffer tracked) and records each leak it reports, for the
 * broker's Netty and for gRPC's shaded copy. Netty reports a leak once the leaked buffer was garbage collected and
 * a later allocation polls for it, so {@link #collect} runs the collector and allocates before reading the list.
 */
public final class LeakRecorder {
    private final List<String> leaks = new CopyOnWriteArrayList<>();
    private final List<String> hooked = new CopyOnWriteArrayList<>();

    public LeakRecorder() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        hook("io.netty.buffer.AbstractByteBuf", "io.netty.util.ResourceLeakDetector");
        if (present("io.grpc.netty.shaded.io.netty.buffer.AbstractByteBuf")) {
            hook("io.grpc.netty.shaded.io.netty.buffer.AbstractByteBuf",
                    "io.grpc.netty.shaded.io.netty.util.ResourceLeakDetector");
        }
    }

    private static boolean present(String className) {
        try {
            Class.forName(className);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Attaches a listener to the byte buffers' detector of one Netty copy, and sets its level. */
    private void hook(String byteBufClass, String detectorClass) {
        try {
            Class<?> detectorType = Class.forName(detectorClass);
            Class<?> levelType = Class.forName(detectorClass + "$Level");
            detectorType.getMethod("setLevel", levelType).invoke(null, levelType.getField("PARANOID").get(null));
            Field field = Class.forName(byteBufClass).getDeclaredField("leakDetector");
            field.setAccessible(true);
            Object detector = field.get(null);
            Class<?> listenerType = Class.forName(detectorClass + "$LeakListener");
            Object listener = java.lang.reflect.Proxy.newProxyInstance(listenerType.getClassLoader(),
                    new Class<?>[] {listenerType}, (proxy, method, args) -> {
                        if (method.getName().equals("onLeak")) {
                            leaks.add(args[0] + ": " + args[1]);
                        }
                        return null;
                    });
            detectorType.getMethod("setLeakListener", listenerType).invoke(detector, listener);
            hooked.add(byteBufClass);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot watch " + byteBufClass + " for leaks", e);
        }
    }

    /** Leaks reported so far, after giving the detectors a chance to find buffers collected since. */
    public List<String> collect() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
            // each allocation makes the detector poll its queue of collected, unreleased buffers
            for (int j = 0; j < 100; j++) {
                io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(16).release();
                if (hooked.size() > 1) {
                    io.grpc.netty.shaded.io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(16).release();
                }
            }
        }
        return List.copyOf(leaks);
    }

    public List<String> hooked() {
        return List.copyOf(hooked);
    }
}
