package io.kraft.cli;

import io.kraft.storage.MetaProperties;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code kraft-cli random-uuid}: prints a new cluster id for {@code format --cluster-id}. */
@Command(name = "random-uuid", mixinStandardHelpOptions = true,
        description = "Prints a new random cluster id (16 random bytes, URL-safe base64).")
final class RandomUuidCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().getOut().println(MetaProperties.randomUuid());
        spec.commandLine().getOut().flush();
    }
}
