package io.kraft.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** Answers {@code kraft-cli --version} from the version the build wrote into the jar. */
final class VersionProvider implements IVersionProvider {
    static final String RESOURCE = "/io/kraft/cli/version.properties";

    @Override
    public String[] getVersion() throws IOException {
        return new String[] {"kraft-cli " + version() + " (Java " + Runtime.version() + ")"};
    }

    /** The project version, from a resource Maven filters at build time. */
    static String version() throws IOException {
        try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException("missing resource " + RESOURCE);
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        }
    }
}
