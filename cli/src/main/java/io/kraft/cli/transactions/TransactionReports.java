package io.kraft.cli.transactions;

import io.kraft.cli.groups.TextTable;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;

/** The tables of {@code kraft-cli transactions}, with the columns and "None" cells of kafka-transactions.sh. */
public final class TransactionReports {
    private static final String NONE = "None";

    private TransactionReports() {
    }

    /** {@code list}: one row per transactional id, with the broker that coordinates it. */
    public static TextTable listing(Map<Integer, Collection<TransactionListing>> byCoordinator) {
        TextTable table = new TextTable("TransactionalId", "Coordinator", "ProducerId", "TransactionState");
        byCoordinator.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> entry.getValue()
                .stream().sorted((a, b) -> a.transactionalId().compareTo(b.transactionalId()))
                .forEach(listing -> table.add(List.of(listing.transactionalId(), String.valueOf(entry.getKey()),
                        String.valueOf(listing.producerId()), listing.state().toString()))));
        return table;
    }

    /** {@code describe}: the id's state; the duration counts from its open transaction's start to {@code nowMs}. */
    public static TextTable description(String transactionalId, TransactionDescription description, long nowMs) {
        TextTable table = new TextTable("CoordinatorId", "TransactionalId", "ProducerId", "ProducerEpoch",
                "TransactionState", "TransactionTimeoutMs", "CurrentTransactionStartTimeMs", "TransactionDurationMs",
                "TopicPartitions");
        String start = NONE;
        String duration = NONE;
        if (description.transactionStartTimeMs().isPresent()) {
            long startMs = description.transactionStartTimeMs().getAsLong();
            start = String.valueOf(startMs);
            duration = String.valueOf(nowMs - startMs);
        }
        String partitions = description.topicPartitions().stream().map(Object::toString).sorted()
                .collect(Collectors.joining(","));
        table.add(List.of(String.valueOf(description.coordinatorId()), transactionalId,
                String.valueOf(description.producerId()), String.valueOf(description.producerEpoch()),
                description.state().toString(), String.valueOf(description.transactionTimeoutMs()), start, duration,
                partitions));
        return table;
    }

    /** {@code describe-producers}: one row per producer the partition's replica tracks. */
    public static TextTable producers(List<ProducerState> producers) {
        TextTable table = new TextTable("ProducerId", "ProducerEpoch", "LatestCoordinatorEpoch", "LastSequence",
                "LastTimestamp", "CurrentTransactionStartOffset");
        for (ProducerState producer : producers) {
            table.add(List.of(String.valueOf(producer.producerId()), String.valueOf(producer.producerEpoch()),
                    String.valueOf(producer.coordinatorEpoch().orElse(-1)), String.valueOf(producer.lastSequence()),
                    String.valueOf(producer.lastTimestamp()),
                    producer.currentTransactionStartOffset().isPresent()
                            ? String.valueOf(producer.currentTransactionStartOffset().getAsLong()) : NONE));
        }
        return table;
    }

    /** {@code find-hanging}: one row per hanging transaction; the duration in whole minutes since its last write. */
    public static TextTable hanging(List<OpenTransaction> transactions, long nowMs) {
        TextTable table = new TextTable("Topic", "Partition", "ProducerId", "ProducerEpoch", "CoordinatorEpoch",
                "StartOffset", "LastTimestamp", "Duration(min)");
        for (OpenTransaction txn : transactions) {
            ProducerState producer = txn.producer();
            table.add(List.of(txn.partition().topic(), String.valueOf(txn.partition().partition()),
                    String.valueOf(producer.producerId()), String.valueOf(producer.producerEpoch()),
                    String.valueOf(producer.coordinatorEpoch().orElse(-1)),
                    String.valueOf(producer.currentTransactionStartOffset().orElse(-1)),
                    String.valueOf(producer.lastTimestamp()),
                    String.valueOf(TimeUnit.MILLISECONDS.toMinutes(nowMs - producer.lastTimestamp()))));
        }
        return table;
    }
}
