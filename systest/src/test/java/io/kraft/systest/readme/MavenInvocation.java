package io.kraft.systest.readme;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The Maven that runs this build, so that the page's {@code mvn} commands run with the same installation, local
 * repository and offline setting (the systest pom passes them as system properties).
 */
final class MavenInvocation {
    static final String HOME_PROPERTY = "kraft.maven.home";
    static final String OFFLINE_PROPERTY = "kraft.maven.offline";
    static final String LOCAL_REPOSITORY_PROPERTY = "kraft.maven.repository";

    private MavenInvocation() {
    }

    /** The directory holding {@code mvn}: this build's, or the one on the PATH outside Maven. */
    static Path binDirectory() {
        String home = System.getProperty(HOME_PROPERTY);
        return home == null || home.isBlank() ? Path.of("/usr/bin") : Path.of(home, "bin");
    }

    /** {@code -o} if this build is offline, and its local repository. */
    static List<String> sameSetupArguments() {
        List<String> args = new ArrayList<>();
        if (System.getProperty(OFFLINE_PROPERTY, "").equals("offline=true")) {
            args.add("-o");
        }
        String repository = System.getProperty(LOCAL_REPOSITORY_PROPERTY);
        if (repository != null && !repository.isBlank()) {
            args.add("-Dmaven.repo.local=" + repository);
        }
        return args;
    }
}
