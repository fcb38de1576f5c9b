import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** What the client programs of bin/bench-vs-kafka share: the client settings of the run's listener security. */
final class BenchClients {
    private BenchClients() {
    }

    /** The settings bin/bench-vs-kafka writes to the file named by BENCH_CLIENT_CONFIG (empty for plaintext). */
    static Properties clientProperties() throws IOException {
        Properties props = new Properties();
        String file = System.getenv("BENCH_CLIENT_CONFIG");
        if (file != null && !file.isEmpty()) {
            try (Reader reader = Files.newBufferedReader(Path.of(file))) {
                props.load(reader);
            }
        }
        return props;
    }
}
