package io.kraft.cli.transactions;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersOptions;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;

/**
 * Finds hanging transactions as kafka-transactions.sh's {@code find-hanging} does: a producer with an open transaction
 * in a partition that has not written for longer than the largest transaction timeout, and whose coordinator does
 * not count that partition in the id's transaction (or knows no transactional id for the producer). The coordinator
 * would never write its marker, so the partition's last stable offset cannot pass it until someone aborts it.
 */
public final class HangingTransactions {
    /** At most this many partitions or topics per Admin call, so one request stays small. */
    static final int MAX_BATCH = 500;

    private final Admin admin;

    public HangingTransactions(Admin admin) {
        this.admin = admin;
    }

    /**
     * The partitions to search: one, a topic's, or every (non-internal) topic's; with a broker id, only those with a
     * replica on it.
     */
    public List<TopicPartition> partitions(String topic, Integer partition, Integer brokerId)
            throws ExecutionException, InterruptedException {
        if (topic != null && partition != null) {
            return List.of(new TopicPartition(topic, partition));
        }
        List<String> topics = topic != null ? List.of(topic)
                : admin.listTopics().names().get().stream().sorted().toList();
        List<TopicPartition> partitions = new ArrayList<>();
        for (List<String> batch : batches(topics)) {
            Map<String, TopicDescription> descriptions = admin.describeTopics(batch).allTopicNames().get();
            for (String name : batch) {
                descriptions.get(name).partitions().stream()
                        .filter(p -> brokerId == null || p.replicas().stream().anyMatch(n -> n.id() == brokerId))
                        .forEach(p -> partitions.add(new TopicPartition(name, p.partition())));
            }
        }
        return partitions;
    }

    /** The hanging transactions among {@code partitions}, as the leader (or {@code brokerId}'s replica) sees them. */
    public List<OpenTransaction> find(List<TopicPartition> partitions, Integer brokerId, long maxTransactionTimeoutMs,
                                      long nowMs) throws ExecutionException, InterruptedException {
        List<OpenTransaction> candidates = new ArrayList<>();
        DescribeProducersOptions options = new DescribeProducersOptions();
        if (brokerId != null) {
            options.brokerId(brokerId);
        }
        for (List<TopicPartition> batch : batches(partitions)) {
            Map<TopicPartition, PartitionProducerState> states = admin.describeProducers(batch, options).all().get();
            states.forEach((tp, state) -> {
                for (ProducerState producer : state.activeProducers()) {
                    if (producer.currentTransactionStartOffset().isPresent()
                            && nowMs - producer.lastTimestamp() > maxTransactionTimeoutMs) {
                        candidates.add(new OpenTransaction(tp, producer));
                    }
                }
            });
        }
        if (candidates.isEmpty()) {
            return List.of();
        }
        Set<Long> producerIds = new HashSet<>();
        candidates.forEach(c -> producerIds.add(c.producer().producerId()));
        Map<Long, String> transactionalIds = new HashMap<>();
        Collection<TransactionListing> listings = admin.listTransactions(new ListTransactionsOptions()
                .filterProducerIds(producerIds)).all().get();
        listings.stream().filter(l -> producerIds.contains(l.producerId()))
                .forEach(l -> transactionalIds.put(l.producerId(), l.transactionalId()));
        Map<String, TransactionDescription> descriptions = describe(transactionalIds.values());
        List<OpenTransaction> hanging = new ArrayList<>();
        for (OpenTransaction candidate : candidates) {
            String transactionalId = transactionalIds.get(candidate.producer().producerId());
            TransactionDescription description = transactionalId == null ? null : descriptions.get(transactionalId);
            if (description == null || !description.topicPartitions().contains(candidate.partition())) {
                hanging.add(candidate);
            }
        }
        hanging.sort(Comparator.comparing((OpenTransaction t) -> t.partition().topic())
                .thenComparingInt(t -> t.partition().partition())
                .thenComparingLong(t -> t.producer().producerId()));
        return hanging;
    }

    /** The ids' descriptions; an id the coordinator no longer knows is left out. */
    private Map<String, TransactionDescription> describe(Collection<String> transactionalIds)
            throws ExecutionException, InterruptedException {
        Map<String, TransactionDescription> descriptions = new HashMap<>();
        if (transactionalIds.isEmpty()) {
            return descriptions;
        }
        var result = admin.describeTransactions(new HashSet<>(transactionalIds));
        for (String id : new HashSet<>(transactionalIds)) {
            try {
                descriptions.put(id, result.description(id).get());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TransactionalIdNotFoundException)) {
                    throw e;
                }
            }
        }
        return descriptions;
    }

    private static <T> List<List<T>> batches(List<T> items) {
        List<List<T>> batches = new ArrayList<>();
        for (int from = 0; from < items.size(); from += MAX_BATCH) {
            batches.add(items.subList(from, Math.min(items.size(), from + MAX_BATCH)));
        }
        return batches;
    }
}
