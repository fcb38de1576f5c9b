package io.kraft.storage.log;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.MappedByteBuffer;

/**
 * Releases memory mappings eagerly. Without it an index's mapping lives until garbage collection,
 * which pins address space and the file's blocks after a resize or delete.
 */
final class MappedBuffers {
    private static final Object UNSAFE;
    private static final Method INVOKE_CLEANER;

    static {
        Object unsafe = null;
        Method cleaner = null;
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field field = unsafeClass.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            unsafe = field.get(null);
            cleaner = unsafeClass.getMethod("invokeCleaner", java.nio.ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Not available on this JVM: mappings are then released by the garbage collector.
            unsafe = null;
            cleaner = null;
        }
        UNSAFE = unsafe;
        INVOKE_CLEANER = cleaner;
    }

    private MappedBuffers() {
    }

    /** Unmaps {@code buffer}; the caller guarantees nothing touches it afterwards. */
    static void unmap(MappedByteBuffer buffer) {
        if (buffer == null || INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invoke(UNSAFE, buffer);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Falling back to garbage collection is safe, only slower to release.
        }
    }
}
