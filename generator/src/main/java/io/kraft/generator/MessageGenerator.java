package io.kraft.generator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The build step: reads every {@code *.json} spec in a directory, validates them all, and writes one
 * Java class per message (API bodies and data specs alike) plus {@code ApiMessageFactory} into a
 * package directory. Files whose content did not change are left alone (so incremental compilation
 * stays incremental) and stale generated files are removed. Problems fail the build with one line per problem.
 *
 * <p>Usage: {@code MessageGenerator <spec dir> <output source root> <package>}.
 */
public final class MessageGenerator {
    private MessageGenerator() {
    }

    /** Entry point for the build; throws (rather than exiting) so that Maven reports the problems. */
    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: MessageGenerator <spec dir> <output source root> <package>");
        }
        Result result = run(Path.of(args[0]), Path.of(args[1]), args[2]);
        if (result.written() > 0 || result.deleted() > 0) {
            System.out.println("kraft-generator: " + result.messages() + " messages, " + result.written()
                    + " files written, " + result.deleted() + " stale files removed in " + Path.of(args[1]));
        }
    }

    /** What a run did. */
    public record Result(int messages, int written, int deleted) {
    }

    /** Generates the sources; throws {@link GeneratorException} listing every problem in the specs. */
    public static Result run(Path specDir, Path outputRoot, String pkg) throws IOException {
        Map<String, String> sources = generate(readSpecs(specDir), pkg);
        Path dir = outputRoot.resolve(pkg.replace('.', '/'));
        Files.createDirectories(dir);
        int written = 0;
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path file = dir.resolve(e.getKey());
            if (!Files.exists(file) || !Files.readString(file, StandardCharsets.UTF_8).equals(e.getValue())) {
                Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
                written++;
            }
        }
        int deleted = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".java") && !sources.containsKey(name)) {
                    Files.delete(file);
                    deleted++;
                }
            }
        }
        return new Result(sources.size() - 1, written, deleted);
    }

    /** Spec file name to content, in name order. */
    static Map<String, String> readSpecs(Path specDir) throws IOException {
        if (!Files.isDirectory(specDir)) {
            throw new GeneratorException(List.of(specDir + ": no such spec directory"));
        }
        Map<String, String> specs = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(specDir)) {
            files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().forEach(p -> {
                try {
                    specs.put(p.getFileName().toString(), Files.readString(p, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return specs;
    }

    /**
     * Parses, validates and generates: Java file name to source. Throws {@link GeneratorException}
     * with every problem when any spec is unusable.
     */
    public static Map<String, String> generate(Map<String, String> specs, String pkg) {
        SpecParser parser = new SpecParser();
        List<MessageSpec> messages = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (Map.Entry<String, String> e : specs.entrySet()) {
            try {
                messages.add(parser.parse(e.getKey(), e.getValue()));
            } catch (SpecException ex) {
                errors.add(ex.getMessage());
            }
        }
        errors.addAll(SpecValidator.validate(messages));
        if (!errors.isEmpty()) {
            throw new GeneratorException(errors);
        }
        Map<String, String> sources = new LinkedHashMap<>();
        for (MessageSpec m : messages) {
            sources.put(m.name() + ".java", MessageClassWriter.generate(m, pkg));
        }
        sources.put("ApiMessageFactory.java", FactoryWriter.generate(messages, pkg));
        return sources;
    }
}
