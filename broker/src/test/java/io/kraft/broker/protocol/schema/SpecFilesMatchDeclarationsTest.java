package io.kraft.broker.protocol.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.messages.ApiMessages;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * While the Struct codec and the generated classes both exist, the spec files the generator reads
 * must say exactly what the Java declarations in {@code protocol.messages} say. Run with
 * {@code -Dkraft.writeSpecs=true} to rewrite the files from the declarations instead of checking.
 */
class SpecFilesMatchDeclarationsTest {
    private static final Path SPEC_DIR = Path.of("src/main/messages");

    @Test
    void everyDeclaredMessageHasAnIdenticalSpecFile() throws IOException {
        boolean write = Boolean.getBoolean("kraft.writeSpecs");
        Set<String> expected = new TreeSet<>();
        for (ApiKey api : ApiMessages.declared()) {
            for (String type : new String[] {"request", "response"}) {
                MessageSchema schema = type.equals("request") ? ApiMessages.requestSchema(api) : ApiMessages.responseSchema(api);
                String json = SpecJson.render(api, type, schema);
                Path file = SPEC_DIR.resolve(schema.name() + ".json");
                expected.add(file.getFileName().toString());
                if (write) {
                    Files.createDirectories(SPEC_DIR);
                    Files.writeString(file, json, StandardCharsets.UTF_8);
                } else {
                    assertTrue(Files.exists(file), file + " is missing");
                    assertEquals(json, Files.readString(file, StandardCharsets.UTF_8),
                            file + " differs from " + schema.name() + " declared in protocol.messages");
                }
            }
        }
        Set<String> present = new TreeSet<>();
        try (Stream<Path> files = Files.list(SPEC_DIR)) {
            // data specs ("type": "data", never named ...Request or ...Response) have no declaration here
            files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith("Request.json") || n.endsWith("Response.json")).forEach(present::add);
        }
        assertEquals(expected, present, "spec files without a declaration, or declarations without a file");
    }
}
