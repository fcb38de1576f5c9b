package io.kraft.broker.protocol;

import io.kraft.broker.protocol.codec.ExternalRecords;
import io.kraft.generator.FieldSpec;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reaches a field of a message object by its spec name: the getter {@code name()} and the setter
 * {@code setName(..)} that the generated classes have (and kafka-clients' classes, whose accessors follow the
 * same names). A records field {@code records} of ours is read as {@code externalRecords()} when it holds
 * external records, else as its bytes.
 */
final class SpecFields {
    private static final Map<String, Method> METHODS = new ConcurrentHashMap<>();

    private SpecFields() {
    }

    static Object get(Object target, FieldSpec f) {
        if (Specs.isRecords(f) && target.getClass().getPackageName().equals(ApiKey.class.getPackageName() + ".message")) {
            Object external = invoke(getter(target.getClass(), "external" + capitalize(f.name())), target);
            if (external != null) {
                return external;
            }
        }
        return invoke(getter(target.getClass(), f.name()), target);
    }

    static void set(Object target, FieldSpec f, Object value) {
        String name = value instanceof ExternalRecords ? "setExternal" + capitalize(f.name()) : "set" + capitalize(f.name());
        invoke(setter(target.getClass(), name), target, value);
    }

    /** The class of a struct field's value, or of an array field's elements (from the setter's declared type). */
    static Class<?> valueClass(Class<?> owner, FieldSpec f) {
        Method setter = setter(owner, "set" + capitalize(f.name()));
        Type type = setter.getGenericParameterTypes()[0];
        if (type instanceof ParameterizedType p) { // List<Element>
            return (Class<?>) p.getActualTypeArguments()[0];
        }
        return setter.getParameterTypes()[0];
    }

    /** The generated class of a struct field's value, or of an array field's elements, in {@code owner}. */
    static Object newValue(Class<?> owner, FieldSpec f) {
        return construct(valueClass(owner, f));
    }

    static <T> T construct(Class<T> type) {
        try {
            return type.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("no public no-arg constructor on " + type.getName(), e);
        }
    }

    private static Method getter(Class<?> type, String name) {
        return METHODS.computeIfAbsent(type.getName() + "#" + name + "()", k -> {
            try {
                return type.getMethod(name);
            } catch (NoSuchMethodException e) {
                throw new AssertionError(type.getName() + " has no getter " + name + "()", e);
            }
        });
    }

    private static Method setter(Class<?> type, String name) {
        return METHODS.computeIfAbsent(type.getName() + "#" + name + "(_)", k -> {
            for (Method m : type.getMethods()) {
                if (m.getName().equals(name) && m.getParameterCount() == 1) {
                    return m;
                }
            }
            throw new AssertionError(type.getName() + " has no setter " + name + "(..)");
        });
    }

    private static Object invoke(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new AssertionError(e.getCause());
        }
    }

    static String capitalize(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
