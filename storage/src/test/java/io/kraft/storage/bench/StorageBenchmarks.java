package io.kraft.storage.bench;

import java.util.Collection;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the storage benchmarks and prints the figures the foundation issue asks for: append MB/s of the
 * log and of a plain FileChannel loop with their ratio, transferTo read MB/s, and offset lookup latency.
 * Arguments are JMH's own (e.g. {@code -f 1 -wi 2 -i 3}); a regex argument narrows the benchmarks.
 */
public final class StorageBenchmarks {
    private static final double MIB = 1024.0 * 1024.0;

    private StorageBenchmarks() {
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        CommandLineOptions cli = new CommandLineOptions(args);
        OptionsBuilder builder = new OptionsBuilder();
        if (cli.getIncludes().isEmpty()) {
            builder.include(StorageBenchmarks.class.getPackageName() + ".*Benchmark");
        }
        Options options = builder.parent(cli).build();
        Collection<RunResult> results = new Runner(options).run();

        double logAppend = Double.NaN;
        double plainWrite = Double.NaN;
        System.out.println();
        System.out.println("== kraft storage benchmark summary");
        for (RunResult result : results) {
            String name = result.getParams().getBenchmark();
            double score = result.getPrimaryResult().getScore();
            double error = result.getPrimaryResult().getScoreError();
            String method = name.substring(name.lastIndexOf('.') + 1);
            switch (method) {
                case "logAppend" -> {
                    logAppend = score * batchBytes() / MIB;
                    System.out.printf("log append            %10.1f MiB/s  (+/- %.1f)%n", logAppend, error * batchBytes() / MIB);
                }
                case "fileChannelWrite" -> {
                    plainWrite = score * batchBytes() / MIB;
                    System.out.printf("FileChannel.write     %10.1f MiB/s  (+/- %.1f)%n", plainWrite, error * batchBytes() / MIB);
                }
                case "readTransferTo" -> {
                    int fetchBytes = Integer.parseInt(result.getParams().getParam("fetchBytes"));
                    System.out.printf("read via transferTo   %10.1f MiB/s  (%d-byte fetches)%n", score * fetchBytes / MIB,
                            fetchBytes);
                }
                case "lookupRandomOffset" -> System.out.printf("offset lookup         %10.0f ns/op  (+/- %.0f, %d segments)%n",
                        score, error, OffsetLookupBenchmark.SEGMENTS);
                default -> System.out.printf("%s %.3f %s%n", method, score, result.getPrimaryResult().getScoreUnit());
            }
        }
        if (!Double.isNaN(logAppend) && !Double.isNaN(plainWrite)) {
            System.out.printf("append ratio log / FileChannel.write = %.2f (target >= 0.80)%n", logAppend / plainWrite);
        }
    }

    private static int batchBytes() {
        return BenchBatches.batchOf1KiBRecords(0).remaining();
    }
}
