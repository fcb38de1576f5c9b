package io.kraft.generator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small specs generated, compiled against stand-ins for the broker's runtime classes, loaded and
 * inspected: the typed API (types, defaults, fluent setters, nested classes, records accessors), the
 * version logic of a scalar message byte by byte, and the source's shape (header, elided checks).
 */
class GeneratedSourceTest {
    private static final String PKG = "test.gen";

    private static final String FULL_FIELDS = String.join(", ",
            "{\"name\": \"acks\", \"type\": \"int16\", \"versions\": \"0+\", \"default\": -1}",
            "{\"name\": \"flag\", \"type\": \"bool\", \"versions\": \"0+\", \"default\": true}",
            "{\"name\": \"name\", \"type\": \"string\", \"versions\": \"0+\", \"nullableVersions\": \"0+\", \"default\": null}",
            "{\"name\": \"id\", \"type\": \"uuid\", \"versions\": \"1+\"}",
            "{\"name\": \"payload\", \"type\": \"bytes\", \"versions\": \"0+\"}",
            "{\"name\": \"topics\", \"type\": \"[]Topic\", \"versions\": \"0+\", \"fields\": ["
                    + "{\"name\": \"name\", \"type\": \"string\", \"versions\": \"0+\"}, "
                    + "{\"name\": \"partitions\", \"type\": \"[]int32\", \"versions\": \"0+\"}, "
                    + "{\"name\": \"records\", \"type\": \"records\", \"versions\": \"0+\", \"nullableVersions\": \"0+\"}]}",
            "{\"name\": \"leader\", \"type\": \"Leader\", \"versions\": \"2+\", \"tag\": 0, \"taggedVersions\": \"2+\", \"fields\": ["
                    + "{\"name\": \"leaderId\", \"type\": \"int32\", \"versions\": \"0+\", \"default\": -1}]}");

    private static final String SCALAR_FIELDS = String.join(", ",
            "{\"name\": \"a\", \"type\": \"int16\", \"versions\": \"0+\"}",
            "{\"name\": \"b\", \"type\": \"int32\", \"versions\": \"1+\"}",
            "{\"name\": \"c\", \"type\": \"int64\", \"versions\": \"0-1\", \"default\": -1}",
            "{\"name\": \"d\", \"type\": \"bool\", \"versions\": \"2+\", \"default\": true}",
            "{\"name\": \"e\", \"type\": \"int32\", \"versions\": \"2+\", \"tag\": 3, \"taggedVersions\": \"2+\", \"default\": -1}");

    @TempDir
    Path dir;

    @Test
    void generatedClassesHaveTypedFieldsDefaultsAndFluentSetters() throws Exception {
        ClassLoader loader = compile(Specs.pair("Sample", "0-2", "2+", FULL_FIELDS));
        Class<?> request = loader.loadClass(PKG + ".SampleRequest");
        Class<?> topic = loader.loadClass(PKG + ".SampleRequest$Topic");
        Class<?> leader = loader.loadClass(PKG + ".SampleRequest$Leader");
        assertTrue(Modifier.isStatic(topic.getModifiers()) && Modifier.isPublic(topic.getModifiers()));
        assertTrue(loader.loadClass(PKG + ".ApiMessage").isAssignableFrom(request));
        assertEquals((short) 90, request.getField("API_KEY").get(null));
        assertEquals((short) 2, request.getField("HIGHEST_SUPPORTED_VERSION").get(null));

        assertEquals(short.class, request.getMethod("acks").getReturnType());
        assertEquals(request, request.getMethod("setAcks", short.class).getReturnType());
        assertEquals(boolean.class, request.getMethod("flag").getReturnType());
        assertEquals(java.util.UUID.class, request.getMethod("id").getReturnType());
        assertEquals(ByteBuffer.class, request.getMethod("payload").getReturnType());
        Method topics = request.getMethod("topics");
        assertEquals(List.class, topics.getReturnType());
        assertEquals(topic, ((ParameterizedType) topics.getGenericReturnType()).getActualTypeArguments()[0]);
        assertEquals(Integer.class, ((ParameterizedType) topic.getMethod("partitions").getGenericReturnType())
                .getActualTypeArguments()[0]);
        assertEquals(leader, request.getMethod("leader").getReturnType());
        assertEquals(ByteBuffer.class, topic.getMethod("records").getReturnType());
        Class<?> external = loader.loadClass("io.kraft.broker.protocol.codec.ExternalRecords");
        assertEquals(external, topic.getMethod("externalRecords").getReturnType());
        assertEquals(topic, topic.getMethod("setExternalRecords", external).getReturnType());

        Object message = request.getConstructor().newInstance();
        assertEquals((short) -1, request.getMethod("acks").invoke(message));
        assertEquals(true, request.getMethod("flag").invoke(message));
        assertNull(request.getMethod("name").invoke(message));
        assertEquals(new java.util.UUID(0, 0), request.getMethod("id").invoke(message));
        assertEquals(0, ((ByteBuffer) request.getMethod("payload").invoke(message)).remaining());
        assertEquals(List.of(), request.getMethod("topics").invoke(message));
        assertEquals(-1, leader.getMethod("leaderId").invoke(request.getMethod("leader").invoke(message)));
        assertNull(topic.getMethod("records").invoke(topic.getConstructor().newInstance()));

        Object other = request.getConstructor().newInstance();
        assertEquals(message, other);
        assertEquals(message.hashCode(), other.hashCode());
        assertSame(message, request.getMethod("setAcks", short.class).invoke(message, (short) 1));
        assertNotEquals(message, other);
        assertTrue(message.toString().startsWith("SampleRequest(acks=1, flag=true, name=null"), message.toString());

        Class<?> factory = loader.loadClass(PKG + ".ApiMessageFactory");
        assertEquals(request, factory.getMethod("newRequest", short.class).invoke(null, (short) 90).getClass());
        assertEquals(true, factory.getMethod("isKnown", short.class).invoke(null, (short) 90));
        assertEquals(false, factory.getMethod("isKnown", short.class).invoke(null, (short) 91));
    }

    @Test
    void scalarFieldsAreWrittenAndReadOnlyInTheirVersions() throws Exception {
        ClassLoader loader = compile(Specs.pair("Scalar", "0-2", "2+", SCALAR_FIELDS));
        Class<?> type = loader.loadClass(PKG + ".ScalarRequest");
        Object m = type.getConstructor().newInstance();
        type.getMethod("setA", short.class).invoke(m, (short) 0x0102);
        type.getMethod("setB", int.class).invoke(m, 0x03040506);
        type.getMethod("setC", long.class).invoke(m, 7L);
        type.getMethod("setD", boolean.class).invoke(m, false);

        assertArrayEquals(new byte[] {1, 2, 0, 0, 0, 0, 0, 0, 0, 7}, write(type, m, 0), "v0: a, c");
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 7}, write(type, m, 1), "v1: a, b, c");
        // v2: a, b, d, then the tagged section: e holds its default, so no tagged fields
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 0, 0}, write(type, m, 2), "v2: a, b, d, no tags");
        type.getMethod("setE", int.class).invoke(m, 9);
        byte[] v2 = write(type, m, 2);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 0, 1, 3, 4, 0, 0, 0, 9}, v2, "v2 with tag 3");

        Method parse = type.getMethod("parse", ByteBuffer.class, short.class);
        Object fromV2 = parse.invoke(null, ByteBuffer.wrap(v2), (short) 2);
        assertEquals(-1L, type.getMethod("c").invoke(fromV2), "c is absent from v2 and keeps its default");
        assertEquals(9, type.getMethod("e").invoke(fromV2));
        Object fromV0 = parse.invoke(null, ByteBuffer.wrap(write(type, m, 0)), (short) 0);
        assertEquals(0, type.getMethod("b").invoke(fromV0));
        assertEquals(true, type.getMethod("d").invoke(fromV0));
        assertEquals(7L, type.getMethod("c").invoke(fromV0));
        // an unknown tag is skipped
        byte[] unknownTag = {1, 2, 3, 4, 5, 6, 0, 1, 5, 2, 9, 9};
        Object skipped = parse.invoke(null, ByteBuffer.wrap(unknownTag), (short) 2);
        assertEquals(-1, type.getMethod("e").invoke(skipped));
    }

    @Test
    void dataSpecsBecomeMessagesWithoutAnApiKey() throws Exception {
        Map<String, String> specs = new java.util.LinkedHashMap<>(Specs.pair("Scalar", "0-2", "2+", SCALAR_FIELDS));
        specs.put("StoredValue.json", Specs.data("StoredValue", "1-3", "none", String.join(", ",
                "{\"name\": \"offset\", \"type\": \"int64\", \"versions\": \"0+\"}",
                "{\"name\": \"epoch\", \"type\": \"int32\", \"versions\": \"3+\", \"default\": -1}",
                "{\"name\": \"expiry\", \"type\": \"int64\", \"versions\": \"1\", \"default\": -1}")));
        ClassLoader loader = compile(specs);
        Class<?> type = loader.loadClass(PKG + ".StoredValue");
        assertTrue(loader.loadClass(PKG + ".Message").isAssignableFrom(type));
        assertFalse(loader.loadClass(PKG + ".ApiMessage").isAssignableFrom(type));
        assertTrue(java.util.Arrays.stream(type.getFields()).noneMatch(f -> f.getName().equals("API_KEY")));
        assertTrue(java.util.Arrays.stream(type.getMethods()).noneMatch(m -> m.getName().equals("apiKey")));
        assertEquals((short) 1, type.getField("LOWEST_SUPPORTED_VERSION").get(null));
        assertEquals((short) 3, type.getField("HIGHEST_SUPPORTED_VERSION").get(null));

        Object value = type.getConstructor().newInstance();
        type.getMethod("setOffset", long.class).invoke(value, 0x0102030405060708L);
        type.getMethod("setEpoch", int.class).invoke(value, 9);
        type.getMethod("setExpiry", long.class).invoke(value, 5L);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 5}, write(type, value, 1), "v1: offset, expiry");
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, write(type, value, 2), "v2: offset");
        byte[] v3 = write(type, value, 3);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 9}, v3, "v3: offset, epoch");
        Object read = type.getMethod("parse", ByteBuffer.class, short.class).invoke(null, ByteBuffer.wrap(v3), (short) 3);
        assertEquals(9, type.getMethod("epoch").invoke(read));
        assertEquals(-1L, type.getMethod("expiry").invoke(read), "absent from v3: its default");

        Class<?> factory = loader.loadClass(PKG + ".ApiMessageFactory");
        assertEquals(true, factory.getMethod("isKnown", short.class).invoke(null, (short) 90));
        assertEquals(false, factory.getMethod("isKnown", short.class).invoke(null, (short) -1), "data is no API");
        String source = MessageGenerator.generate(specs, PKG).get("StoredValue.java");
        assertTrue(source.contains(" * StoredValue: versioned data (not an API body), versions 1-3, flexible none."), source);
        assertFalse(MessageGenerator.generate(specs, PKG).get("ApiMessageFactory.java").contains("StoredValue"));
    }

    @Test
    void sourcesNameTheirSpecAndLeaveOutChecksThatAlwaysHold() {
        Map<String, String> sources = MessageGenerator.generate(Specs.pair("Sample", "1-2", "2+", FULL_FIELDS
                + ", {\"name\": \"late\", \"type\": \"int32\", \"versions\": \"2+\"}"), PKG);
        String request = sources.get("SampleRequest.java");
        assertTrue(request.startsWith("// Generated by io.kraft.generator.MessageGenerator from SampleRequest.json. Do not edit"));
        assertFalse(request.contains("version >= 1"), "id exists in every valid version (1-2): no check");
        assertTrue(request.contains("if (version >= 2)"), "late exists from 2 only");
        Map<String, String> classic = MessageGenerator.generate(Specs.pair("Old", "0-3", "none",
                "{\"name\": \"a\", \"type\": \"string\", \"versions\": \"0+\"}"), PKG);
        assertFalse(classic.get("OldRequest.java").contains("readTaggedFieldCount"), "no tagged fields without flexible versions");
        assertFalse(classic.get("OldRequest.java").contains("import java.util.UUID;"), "only the imports it uses");
        assertTrue(request.contains("import java.util.UUID;"));
        assertTrue(classic.get("OldRequest.java").contains("FieldCodec.readString(in, false, false, \"OldRequest.a\")"),
                "classic encoding and non-nullable decided at generation time");
    }

    @Test
    void runWritesOnlyChangedFilesAndRemovesStaleOnes() throws IOException {
        Path specs = Files.createDirectories(dir.resolve("specs"));
        for (Map.Entry<String, String> e : Specs.pair("Sample", "0-2", "2+", FULL_FIELDS).entrySet()) {
            Files.writeString(specs.resolve(e.getKey()), e.getValue());
        }
        Path out = dir.resolve("out");
        assertEquals(new MessageGenerator.Result(2, 3, 0), MessageGenerator.run(specs, out, PKG));
        assertEquals(new MessageGenerator.Result(2, 0, 0), MessageGenerator.run(specs, out, PKG));
        Files.writeString(out.resolve("test/gen/GoneRequest.java"), "// stale");
        assertEquals(new MessageGenerator.Result(2, 0, 1), MessageGenerator.run(specs, out, PKG));
        assertFalse(Files.exists(out.resolve("test/gen/GoneRequest.java")));
    }

    // ---- compiling against stand-ins ------------------------------------------------------------------

    private static byte[] write(Class<?> type, Object message, int version) throws Exception {
        int size = (int) type.getMethod("size", short.class).invoke(message, (short) version);
        ByteBuffer out = ByteBuffer.allocate(size);
        type.getMethod("write", ByteBuffer.class, short.class, loaderClass(type, "io.kraft.broker.protocol.codec.RecordsSink"))
                .invoke(message, out, (short) version, null);
        assertEquals(0, out.remaining(), "size() matches what write() wrote");
        return out.array();
    }

    private static Class<?> loaderClass(Class<?> near, String name) throws ClassNotFoundException {
        return near.getClassLoader().loadClass(name);
    }

    private ClassLoader compile(Map<String, String> specs) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src"));
        List<String> files = new ArrayList<>();
        for (Map.Entry<String, String> e : MessageGenerator.generate(specs, PKG).entrySet()) {
            files.add(write(src, PKG, e.getKey(), e.getValue()));
        }
        for (Map.Entry<String, String> e : Stubs.SOURCES.entrySet()) {
            int dot = e.getKey().lastIndexOf('.');
            files.add(write(src, e.getKey().substring(0, dot), e.getKey().substring(dot + 1) + ".java", e.getValue()));
        }
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-Xlint:all", "-Werror", "--release", "17"));
        args.addAll(files);
        java.io.ByteArrayOutputStream errors = new java.io.ByteArrayOutputStream();
        int rc = javac.run(null, null, errors, args.toArray(String[]::new));
        assertEquals(0, rc, () -> "generated code does not compile cleanly:\n" + errors.toString(StandardCharsets.UTF_8));
        return new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader());
    }

    private static String write(Path root, String pkg, String file, String source) throws IOException {
        Path d = Files.createDirectories(root.resolve(pkg.replace('.', '/')));
        return Files.writeString(d.resolve(file), source).toString();
    }
}
