package io.kraft.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.utils.internals.Exit;

/** Runs one of Apache Kafka's tools (its main class from kafka-tools 4.4) in this JVM, its standard output captured. */
final class KafkaTool {
    /** What a tool printed and how it ended. */
    record Ran(int exitCode, String out) {
        List<String> lines() {
            return out.lines().toList();
        }
    }

    /** Thrown by Kafka's exit procedure instead of ending the JVM. */
    private static final class Exited extends RuntimeException {
        final int code;

        Exited(int code) {
            super("exit " + code);
            this.code = code;
        }
    }

    private KafkaTool() {
    }

    /** {@code mainClass} with {@code --bootstrap-server bootstrap} and then {@code args}. */
    static Ran run(String mainClass, String bootstrap, String... args) throws Exception {
        String[] full = new String[args.length + 2];
        full[0] = "--bootstrap-server";
        full[1] = bootstrap;
        System.arraycopy(args, 0, full, 2, args.length);
        return runArgs(mainClass, full);
    }

    /** {@code mainClass} with exactly {@code full} (for tools whose subcommand comes before the options). */
    static Ran runArgs(String mainClass, String... full) throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        int exitCode = 0;
        Exit.setExitProcedure((code, message) -> {
            throw new Exited(code);
        });
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Method main = Class.forName(mainClass).getMethod("main", String[].class);
            main.invoke(null, (Object) full);
        } catch (InvocationTargetException e) {
            if (!(e.getCause() instanceof Exited exited)) {
                throw e;
            }
            exitCode = exited.code;
        } finally {
            System.setOut(original);
            Exit.resetExitProcedure();
        }
        return new Ran(exitCode, captured.toString(StandardCharsets.UTF_8));
    }
}
