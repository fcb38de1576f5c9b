package io.kraft.broker.protocol;

import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ApiMessageFactory;
import io.kraft.broker.protocol.messages.ApiMessages;
import io.kraft.broker.protocol.schema.ArrayType;
import io.kraft.broker.protocol.schema.ExternalRecords;
import io.kraft.broker.protocol.schema.Field;
import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.SpecJson;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.protocol.schema.StructSchema;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Test-only bridge between generated message classes and the schema codec's {@link Struct}: copies
 * every field either way through the generated getters and setters (found by reflection from the
 * schema's field names), so the two codecs can be compared value by value and the schema-driven
 * helpers ({@link FieldCoverage}, {@link OurRandom}) reused.
 */
final class TypedBridge {
    private TypedBridge() {
    }

    static MessageSchema schema(ApiKey api, boolean request) {
        return request ? ApiMessages.requestSchema(api) : ApiMessages.responseSchema(api);
    }

    static ApiMessage newMessage(ApiKey api, boolean request) {
        return request ? ApiMessageFactory.newRequest(api) : ApiMessageFactory.newResponse(api);
    }

    static ApiMessage parse(ApiKey api, boolean request, short version, ByteBuffer in) {
        ApiMessage message = newMessage(api, request);
        message.read(in, version);
        return message;
    }

    /** A Struct holding every field of {@code typed}, read through its getters. */
    static Struct toStruct(Object typed, StructSchema schema) {
        Struct struct = new Struct(schema);
        for (Field f : schema.fields()) {
            String name = SpecJson.camelCase(f.name());
            Object value;
            if (f.type() == io.kraft.broker.protocol.schema.PrimitiveType.RECORDS) {
                Object external = call(typed, "external" + capitalize(name));
                value = external != null ? external : call(typed, name);
            } else {
                value = call(typed, name);
            }
            struct.set(f, toStructValue(f, value));
        }
        return struct;
    }

    private static Object toStructValue(Field f, Object value) {
        if (value == null) {
            return null;
        }
        if (f.type() instanceof StructSchema s) {
            return toStruct(value, s);
        }
        if (f.type() instanceof ArrayType a && a.element() instanceof StructSchema s) {
            List<Object> list = new ArrayList<>();
            for (Object item : (List<?>) value) {
                list.add(toStruct(item, s));
            }
            return list;
        }
        return value;
    }

    /** A new generated object of {@code type} holding every field of {@code struct}, set through its setters. */
    static <T> T fromStruct(Struct struct, Class<T> type) {
        T typed = construct(type);
        for (Field f : struct.schema().fields()) {
            String name = SpecJson.camelCase(f.name());
            Object value = struct.get(f);
            if (value instanceof ExternalRecords) {
                name = "external" + capitalize(name);
            }
            Method setter = setter(type, "set" + capitalize(name));
            Object converted = value;
            if (value instanceof Struct s) {
                converted = fromStruct(s, setter.getParameterTypes()[0]);
            } else if (value instanceof List<?> list && f.type() instanceof ArrayType a
                    && a.element() instanceof StructSchema) {
                Class<?> element = (Class<?>) ((ParameterizedType) setter.getGenericParameterTypes()[0])
                        .getActualTypeArguments()[0];
                List<Object> items = new ArrayList<>();
                for (Object item : list) {
                    items.add(fromStruct((Struct) item, element));
                }
                converted = items;
            } else if (value instanceof List<?> list) {
                converted = new ArrayList<>(list);
            }
            invoke(setter, typed, converted);
        }
        return typed;
    }

    static ApiMessage fromStruct(Struct body, ApiKey api, boolean request) {
        return fromStruct(body, newMessage(api, request).getClass());
    }

    private static <T> T construct(Class<T> type) {
        try {
            return type.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("no public no-arg constructor on " + type, e);
        }
    }

    private static Method setter(Class<?> type, String name) {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == 1) {
                return m;
            }
        }
        throw new AssertionError(type.getName() + " has no setter " + name);
    }

    private static Object call(Object target, String getter) {
        try {
            return invoke(target.getClass().getMethod(getter), target);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(target.getClass().getName() + " has no getter " + getter + "()", e);
        }
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

    private static String capitalize(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
