package io.kraft.cli;

import io.kraft.cli.acls.AclRequests;
import io.kraft.cli.acls.AclOptionsException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli acls --bootstrap-server HOST:PORT (--add | --remove | --list) ...}: the cluster's ACLs, with the
 * options and output of Kafka's {@code kafka-acls.sh} (principals, hosts, operations, resources, pattern types, and
 * the --producer and --consumer sets).
 */
@Command(name = "acls", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Adds, removes and lists ACLs (like kafka-acls.sh).")
final class AclsCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private AdminConnectionOptions connection;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Action action;

    @Mixin
    private AclRequests.Options options;

    @Option(names = "--force", description = "With --remove: do not ask for confirmation.")
    private boolean force;

    /** Exactly one of the actions. */
    static final class Action {
        @Option(names = "--add", required = true, description = "Add ACLs.")
        boolean add;
        @Option(names = "--remove", required = true, description = "Remove the ACLs that match.")
        boolean remove;
        @Option(names = "--list", required = true, description = "List the ACLs that match.")
        boolean list;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        AclRequests requests;
        try {
            requests = new AclRequests(options);
            if (action.add) {
                List<AclBinding> bindings = requests.additions();
                return AdminConnectionOptions.run(connection.adminProperties(), out, err, admin -> add(admin,
                        bindings, out));
            }
            if (action.remove) {
                List<AclBindingFilter> filters = requests.removals();
                if (!force && !confirmed(filters, out)) {
                    return 0;
                }
                return AdminConnectionOptions.run(connection.adminProperties(), out, err, admin -> remove(admin,
                        filters, out));
            }
            List<AclBindingFilter> filters = requests.listings();
            return AdminConnectionOptions.run(connection.adminProperties(), out, err, admin -> list(admin, filters,
                    out));
        } catch (AclOptionsException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private static int add(Admin admin, List<AclBinding> bindings, PrintWriter out)
            throws ExecutionException, InterruptedException {
        Map<String, List<AccessControlEntry>> byResource = new TreeMap<>();
        Map<String, ResourcePattern> patterns = new TreeMap<>();
        for (AclBinding binding : bindings) {
            byResource.computeIfAbsent(binding.pattern().toString(), k -> new ArrayList<>()).add(binding.entry());
            patterns.put(binding.pattern().toString(), binding.pattern());
        }
        byResource.forEach((pattern, entries) -> print(out, "Adding ACLs for resource `" + pattern + "`:", entries));
        admin.createAcls(bindings).all().get();
        List<AclBindingFilter> current = patterns.values().stream()
                .map(pattern -> new AclBindingFilter(pattern.toFilter(),
                        org.apache.kafka.common.acl.AccessControlEntryFilter.ANY)).toList();
        return list(admin, current, out);
    }

    private static int remove(Admin admin, List<AclBindingFilter> filters, PrintWriter out)
            throws ExecutionException, InterruptedException {
        Collection<AclBinding> removed = admin.deleteAcls(filters).all().get();
        Map<String, List<AccessControlEntry>> byResource = group(removed);
        byResource.forEach((pattern, entries) -> print(out, "Removed ACLs for resource `" + pattern + "`:", entries));
        if (removed.isEmpty()) {
            out.println("No ACLs matched.");
        }
        return 0;
    }

    private static int list(Admin admin, List<AclBindingFilter> filters, PrintWriter out)
            throws ExecutionException, InterruptedException {
        List<AclBinding> found = new ArrayList<>();
        for (AclBindingFilter filter : filters) {
            found.addAll(admin.describeAcls(filter).values().get());
        }
        group(found).forEach((pattern, entries) -> print(out, "Current ACLs for resource `" + pattern + "`:",
                entries));
        return 0;
    }

    private static Map<String, List<AccessControlEntry>> group(Collection<AclBinding> bindings) {
        Map<String, List<AccessControlEntry>> byResource = new TreeMap<>();
        for (AclBinding binding : bindings) {
            List<AccessControlEntry> entries = byResource.computeIfAbsent(binding.pattern().toString(),
                    k -> new ArrayList<>());
            if (!entries.contains(binding.entry())) {
                entries.add(binding.entry());
            }
        }
        return byResource;
    }

    private static void print(PrintWriter out, String heading, List<AccessControlEntry> entries) {
        out.println(heading);
        for (AccessControlEntry entry : entries) {
            out.println("\t" + entry);
        }
        out.println();
    }

    /** Kafka's question before a removal without --force; anything but y or yes on standard input keeps the ACLs. */
    private static boolean confirmed(List<AclBindingFilter> filters, PrintWriter out) {
        for (AclBindingFilter filter : filters) {
            ResourcePatternFilter pattern = filter.patternFilter();
            out.print("Are you sure you want to remove ACLs: \n \t" + filter.entryFilter() + " \n from resource filter `"
                    + pattern + "`? (y/n) ");
            out.flush();
            String answer;
            try {
                answer = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            } catch (java.io.IOException e) {
                answer = null;
            }
            if (answer == null || !(answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"))) {
                out.println();
                out.println("Nothing removed.");
                return false;
            }
        }
        return true;
    }
}
