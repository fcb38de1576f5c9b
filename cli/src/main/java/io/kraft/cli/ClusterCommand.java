package io.kraft.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli cluster cluster-id|unregister}: the cluster's id, and the removal of a decommissioned broker's
 * registration (UnregisterBroker), as Kafka's {@code kafka-cluster.sh}.
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = "Shows the cluster id or unregisters a decommissioned broker (like kafka-cluster.sh).",
        subcommands = {ClusterCommand.ClusterId.class, ClusterCommand.Unregister.class})
final class ClusterCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
    }

    /** {@code cluster cluster-id}: prints the id the cluster's brokers report. */
    @Command(name = "cluster-id", mixinStandardHelpOptions = true, description = "Prints the cluster id.")
    static final class ClusterId implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private AdminConnectionOptions connection;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            return AdminConnectionOptions.run(connection.adminProperties(), out, spec.commandLine().getErr(), admin -> {
                out.println("Cluster ID: " + admin.describeCluster().clusterId().get());
                return 0;
            });
        }
    }

    /** {@code cluster unregister --id N}: removes broker N's registration; its replicas leave every ISR and ELR. */
    @Command(name = "unregister", mixinStandardHelpOptions = true,
            description = "Unregisters a decommissioned broker: it leaves every ISR and eligible leader replicas list.")
    static final class Unregister implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private AdminConnectionOptions connection;

        @Option(names = "--id", required = true, paramLabel = "ID", description = "The id of the broker to unregister.")
        private int brokerId;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            return AdminConnectionOptions.run(connection.adminProperties(), out, spec.commandLine().getErr(), admin -> {
                admin.unregisterBroker(brokerId).all().get();
                out.println("Broker " + brokerId + " is no longer registered.");
                return 0;
            });
        }
    }
}
