package io.kraft.broker.quota;

import io.kraft.broker.protocol.message.ApiMessage;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Optional;

/**
 * Sets {@code throttle_time_ms} on any API's response: the generated classes share no interface for it, so the
 * accessors are looked up once per class. Used only when a client is throttled, never on the common path.
 */
final class ThrottleTimes {
    private record Accessors(MethodHandle getter, MethodHandle setter) {
    }

    private static final ClassValue<Optional<Accessors>> ACCESSORS = new ClassValue<>() {
        @Override
        protected Optional<Accessors> computeValue(Class<?> type) {
            try {
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                return Optional.of(new Accessors(
                        lookup.findVirtual(type, "throttleTimeMs", MethodType.methodType(int.class)),
                        lookup.findVirtual(type, "setThrottleTimeMs", MethodType.methodType(type, int.class))));
            } catch (ReflectiveOperationException e) {
                return Optional.empty();
            }
        }
    };

    private ThrottleTimes() {
    }

    /** Raises the response's throttle time to {@code throttleMs}; a response without the field is left alone. */
    static void raise(ApiMessage response, int throttleMs) {
        Optional<Accessors> accessors = ACCESSORS.get(response.getClass());
        if (accessors.isEmpty()) {
            return;
        }
        try {
            int current = (int) accessors.get().getter().invoke(response);
            if (throttleMs > current) {
                accessors.get().setter().invoke(response, throttleMs);
            }
        } catch (Throwable e) {
            throw new IllegalStateException("Cannot set the throttle time of " + response.getClass().getSimpleName(),
                    e);
        }
    }
}
