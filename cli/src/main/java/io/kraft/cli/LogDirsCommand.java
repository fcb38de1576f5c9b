package io.kraft.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli log-dirs --bootstrap-server HOST:PORT --describe [--broker-list 1,2] [--topic-list t1,t2]}: each
 * broker's log directories and the replicas in them, as the JSON of Kafka's {@code kafka-log-dirs.sh}.
 */
@Command(name = "log-dirs", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Describes the brokers' log directories and the replicas in them (like kafka-log-dirs.sh).")
final class LogDirsCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    private CommandSpec spec;

    @Mixin
    private AdminConnectionOptions connection;

    @Option(names = "--describe", description = "Describe the log directories (the only action).")
    private boolean describe;

    @Option(names = "--broker-list", paramLabel = "1,2,3", split = ",",
            description = "The brokers to ask (default: every broker).")
    private List<Integer> brokerList = new ArrayList<>();

    @Option(names = "--topic-list", paramLabel = "T1,T2", split = ",",
            description = "Only the replicas of these topics (default: all).")
    private List<String> topicList = new ArrayList<>();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!describe) {
            err.println("Error: --describe is needed");
            err.flush();
            return KraftCli.EXIT_USAGE;
        }
        return AdminConnectionOptions.run(connection.adminProperties(), out, err, admin -> describe(admin, out));
    }

    private int describe(Admin admin, PrintWriter out) throws ExecutionException, InterruptedException {
        Set<Integer> brokers = new TreeSet<>(brokerList);
        if (brokers.isEmpty()) {
            admin.describeCluster().nodes().get().stream().map(Node::id).forEach(brokers::add);
        }
        out.println("Querying brokers for log directories information");
        Map<Integer, Map<String, LogDirDescription>> described = admin.describeLogDirs(brokers)
                .allDescriptions().get();
        out.println("Received log directory information from brokers " + String.join(",",
                described.keySet().stream().sorted().map(String::valueOf).toList()));
        List<Object> brokerEntries = new ArrayList<>();
        for (int broker : new TreeSet<>(described.keySet())) {
            List<Object> dirs = new ArrayList<>();
            described.get(broker).entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(dir -> {
                List<Object> partitions = new ArrayList<>();
                dir.getValue().replicaInfos().entrySet().stream()
                        .filter(replica -> topicList.isEmpty() || topicList.contains(replica.getKey().topic()))
                        .sorted(Map.Entry.comparingByKey(Comparator.comparing(TopicPartition::topic)
                                .thenComparingInt(TopicPartition::partition)))
                        .forEach(replica -> partitions.add(partition(replica.getKey(), replica.getValue())));
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("partitions", partitions);
                entry.put("error", dir.getValue().error() == null ? null : dir.getValue().error().getClass().getName());
                entry.put("logDir", dir.getKey());
                dirs.add(entry);
            });
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("broker", broker);
            entry.put("logDirs", dirs);
            brokerEntries.add(entry);
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("brokers", brokerEntries);
        root.put("version", 1);
        try {
            out.println(JSON.writeValueAsString(root));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return 0;
    }

    private static Map<String, Object> partition(TopicPartition partition, ReplicaInfo replica) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("partition", partition.toString());
        entry.put("size", replica.size());
        entry.put("offsetLag", replica.offsetLag());
        entry.put("isFuture", replica.isFuture());
        return entry;
    }
}
